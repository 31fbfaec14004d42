import { Form, Input, InputNumber, Radio, Table, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { usePermission } from '../../../access/access';
import { UNPAGED } from '../../../engine';
import { allDepts, type DeptRow, depts, SOURCES } from './api';
import { ENABLED_CHOICES, SYSTEM_TABLE, sysColumns } from './columns';
import { CrudFormModal } from './form-modal';
import { confirmDeleteText, nest, TOP, type TreeOf } from './rules';
import { LoadError, SearchToolbar } from './toolbar';
import { useTreePage } from './use-tree-page';
import './system.css';

interface DeptForm {
  id?: number;
  pid: number;
  name: string;
  code?: string;
  deptSort: number;
  enabled: boolean;
}

const deptName = (r: DeptRow) => r.name;

/**
 * 部门管理: the department tree with add, edit, delete and enable/disable. The server refuses to
 * delete a department that still has users, and its message is shown.
 */
export function DeptAdminPage() {
  const can = usePermission();
  const [filter, setFilter] = useState('');
  const [form] = Form.useForm<DeptForm>();
  // 新增下级 opens the add dialog on the parent's row.
  const { list, crud, editing, parentId, parents } = useTreePage<DeptRow>({
    source: SOURCES.depts,
    key: 'depts',
    load: allDepts,
    top: '顶级部门',
    title: deptName,
  });
  const tree = useMemo(() => {
    const rows = list.data ?? [];
    if (!filter) return nest(rows);
    // A search shows the matching departments with the path down to them.
    const byId = new Map(rows.map((r) => [r.id, r]));
    const keep = new Set<number>();
    for (const r of rows) {
      if (!r.name.includes(filter)) continue;
      for (let cur: DeptRow | undefined = r; cur && !keep.has(cur.id); cur = cur.pid === null ? undefined : byId.get(cur.pid))
        keep.add(cur.id);
    }
    return nest(rows.filter((r) => keep.has(r.id)));
  }, [list.data, filter]);

  const save = async (v: DeptForm, mode: 'add' | 'edit') => {
    const body = { ...v, pid: v.pid === TOP ? null : v.pid, name: v.name.trim(), code: v.code?.trim() || null };
    await (mode === 'edit' ? depts.edit(body) : depts.add(body));
  };

  return (
    <div className="sys-page" data-page="system-dept">
      <SearchToolbar
        placeholder="输入部门名称搜索"
        label="搜索部门"
        onSearch={setFilter}
        add={{ permission: 'dept:add', onClick: () => crud.open({ mode: 'add' }) }}
      />
      <LoadError error={list.error} retry={list.reload} />
      <Table<TreeOf<DeptRow>>
        {...SYSTEM_TABLE}
        {...UNPAGED}
        rowKey="id"
        loading={list.loading}
        dataSource={tree}
        expandable={{ defaultExpandAllRows: true }}
        key={`${filter}-${list.data ? 1 : 0}`}
        columns={[
          { title: '名称', dataIndex: 'name' },
          { title: '编码', dataIndex: 'code', width: 120 },
          { title: '排序', dataIndex: 'deptSort', width: 80, align: 'center' },
          sysColumns.enabled<DeptRow>({
            width: 90,
            disabled: !can('dept:edit'),
            name: deptName,
            set: depts.setEnabled,
            reload: list.reload,
          }),
          sysColumns.created,
          sysColumns.actions({ width: 190, prefix: 'dept', crud }, (r, { edit, del }) => [
            { label: '新增下级', permission: 'dept:add', onClick: () => crud.open({ mode: 'add', row: r }) },
            edit,
            del(() => void crud.remove([r], confirmDeleteText(r.hasChildren ? `部门“${r.name}”及其全部下级部门` : `部门“${r.name}”`))),
          ]),
        ]}
      />
      <CrudFormModal<DeptForm>
        crud={crud}
        what="部门"
        form={form}
        initialValues={
          editing
            ? {
                id: editing.id,
                pid: editing.pid ?? TOP,
                name: editing.name,
                code: editing.code ?? '',
                deptSort: editing.deptSort,
                enabled: editing.enabled,
              }
            : { pid: parentId ?? TOP, deptSort: 999, enabled: true }
        }
        save={save}
      >
        <Form.Item name="name" label="部门名称" rules={[{ required: true, whitespace: true, message: '请输入部门名称' }]}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="code" label="部门编码">
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="pid" label="上级部门">
          <TreeSelect treeData={parents} treeDefaultExpandAll showSearch treeNodeFilterProp="title" />
        </Form.Item>
        <Form.Item name="deptSort" label="排序" rules={[{ required: true, message: '请输入排序' }]}>
          <InputNumber min={-999999} max={999999} />
        </Form.Item>
        <Form.Item name="enabled" label="状态">
          <Radio.Group options={ENABLED_CHOICES} />
        </Form.Item>
      </CrudFormModal>
    </div>
  );
}
