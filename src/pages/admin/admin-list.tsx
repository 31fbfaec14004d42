import { Button, Input, Space } from 'antd';
import type { ReactNode } from 'react';
import { usePermission } from '../../access/access';
import type { Crud, ListQuery, RecordRow } from '../../engine';

type Can = ReturnType<typeof usePermission>;

/**
 * The toolbar of an admin list searched by name: the 按名称搜索 box and any filters, then 新增 to those
 * holding `{prefix}:add`, 删除 of the picked rows to those holding `{prefix}:del`, and 刷新.
 */
export function NameSearchToolbar<T>({
  prefix,
  name: [name, onName],
  onSearch,
  width,
  list,
  crud,
  children,
}: {
  prefix: string;
  /** The typed name and its setter, as useState gives them. */
  name: readonly [string, (name: string) => void];
  onSearch: (name: string) => void;
  width: number;
  list: Pick<ListQuery<T>, 'selected' | 'reload'>;
  crud: Pick<Crud<T>, 'open' | 'remove' | 'deleting'>;
  children?: ReactNode;
}) {
  const can = usePermission();
  return (
    <Space wrap style={{ marginBottom: 12 }}>
      <Input.Search
        allowClear
        placeholder="按名称搜索"
        aria-label="按名称搜索"
        value={name}
        onChange={(e) => onName(e.target.value)}
        onSearch={(v) => onSearch(v)}
        style={{ width }}
      />
      {children}
      {can(`${prefix}:add`) && (
        <Button type="primary" onClick={() => crud.open({ mode: 'add' })}>
          新增
        </Button>
      )}
      {can(`${prefix}:del`) && (
        <Button danger disabled={!list.selected.rows.length} loading={crud.deleting} onClick={() => crud.remove(list.selected.rows)}>
          删除
        </Button>
      )}
      <Button onClick={list.reload}>刷新</Button>
    </Space>
  );
}

/**
 * A row's 编辑 (to those holding `{prefix}:edit`) and 删除 (`{prefix}:del`) links, as items of the
 * row's <Space> after any links of its own.
 */
export function editDeleteLinks<T>(can: Can, prefix: string, row: RecordRow<T>, crud: Pick<Crud<T>, 'open' | 'remove'>): ReactNode[] {
  return [
    can(`${prefix}:edit`) && (
      <Button key="edit" type="link" size="small" onClick={() => crud.open({ mode: 'edit', row })}>
        编辑
      </Button>
    ),
    can(`${prefix}:del`) && (
      <Button key="del" type="link" size="small" danger onClick={() => crud.remove([row])}>
        删除
      </Button>
    ),
  ];
}
