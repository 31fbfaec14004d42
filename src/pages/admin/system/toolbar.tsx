import { Alert, Button, Input } from 'antd';
import { type ReactNode, useState } from 'react';
import { Access } from '../../../access/access';

/**
 * A system page's toolbar: the search box with 搜索 (Enter searches too) and any filters after it,
 * then on the right 新增 for those who may add, and `extra`.
 */
export function SearchToolbar({
  placeholder,
  label,
  width = 220,
  onSearch,
  filters,
  add,
  extra,
}: {
  placeholder: string;
  label: string;
  width?: number;
  onSearch: (text: string) => void;
  filters?: ReactNode;
  add?: { permission: string; onClick: () => void };
  extra?: ReactNode;
}) {
  const [text, setText] = useState('');
  const search = () => onSearch(text.trim());
  return (
    <div className="sys-toolbar">
      <Input
        allowClear
        placeholder={placeholder}
        style={{ width }}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onPressEnter={search}
        aria-label={label}
      />
      {filters}
      <Button type="primary" onClick={search}>
        搜索
      </Button>
      {(add || extra) && <span className="sys-grow" />}
      {add && (
        <Access roles={[add.permission]}>
          <Button type="primary" onClick={add.onClick}>
            新增
          </Button>
        </Access>
      )}
      {extra}
    </div>
  );
}

/** A page's read failure, with a retry, instead of an empty table. */
export function LoadError({ error, retry }: { error: string | null; retry: () => void }) {
  if (!error) return null;
  return (
    <Alert
      className="sys-load-error"
      type="error"
      showIcon
      title={error}
      action={
        <Button size="small" onClick={retry}>
          重试
        </Button>
      }
    />
  );
}
