import { Button, Form, Input, InputNumber, Radio, Switch, Table, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { Access, usePermission } from '../../../access/access';
import { UNPAGED } from '../../../engine';
import { notify } from '../../../notify/notifier';
import { allDepts, type DeptRow, depts, SOURCES } from './api';
import { ActionLinks, CrudFormModal, deleteText, LoadError, SYSTEM_TABLE, useRemote, useTreeCrud } from './common';
import { nest, type TreeOf } from './rules';

interface DeptForm {
  id?: number;
  pid: number;
  name: string;
  code?: string;
  deptSort: number;
  enabled: boolean;
}

/** The 0 of the parent picker: a department at the top level. */
const TOP = 0;

interface ParentOption {
  value: number;
  title: string;
  children?: ParentOption[];
}

function parentOptions(nodes: TreeOf<DeptRow>[], exclude: number | undefined): ParentOption[] {
  return nodes
    .filter((n) => n.id !== exclude)
    .map((n) => {
      const children = parentOptions(n.children ?? [], exclude);
      return { value: n.id, title: n.name, children: children.length ? children : undefined };
    });
}

/**
 * 部门管理: the department tree with add, edit, delete and enable/disable. The server refuses to
 * delete a department that still has users, and its message is shown.
 */
export function DeptAdminPage() {
  const can = usePermission();
  const [name, setName] = useState('');
  const [filter, setFilter] = useState('');
  const [form] = Form.useForm<DeptForm>();

  const list = useRemote(allDepts, []);
  const crud = useTreeCrud<DeptRow>(SOURCES.depts, list.reload);
  const dialog = crud.dialog;
  // 新增下级 opens the add dialog on the parent's row.
  const editing = dialog?.mode === 'edit' ? dialog.row : undefined;
  const parentId = dialog?.mode === 'add' ? dialog.row?.id : undefined;
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
  const fullTree = useMemo(() => nest(list.data ?? []), [list.data]);
  const parents = useMemo(
    () => [{ value: TOP, title: '顶级部门', children: parentOptions(fullTree, editing?.id) }],
    [fullTree, editing?.id],
  );

  const save = async (v: DeptForm, mode: 'add' | 'edit') => {
    const body = { ...v, pid: v.pid === TOP ? null : v.pid, name: v.name.trim(), code: v.code?.trim() || null };
    await (mode === 'edit' ? depts.edit(body) : depts.add(body));
  };

  const toggle = async (row: DeptRow, on: boolean) => {
    try {
      await depts.setEnabled(row, on);
      notify.success(on ? '已启用' : '已禁用');
    } catch {
      // The request client has shown the server's message.
    }
    list.reload();
  };

  return (
    <div className="sys-page" data-page="system-dept">
      <div className="sys-toolbar">
        <Input
          allowClear
          placeholder="输入部门名称搜索"
          style={{ width: 220 }}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onPressEnter={() => setFilter(name.trim())}
          aria-label="搜索部门"
        />
        <Button type="primary" onClick={() => setFilter(name.trim())}>
          搜索
        </Button>
        <span className="sys-grow" />
        <Access roles={['dept:add']}>
          <Button type="primary" onClick={() => crud.open({ mode: 'add' })}>
            新增
          </Button>
        </Access>
      </div>
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
          {
            title: '状态',
            dataIndex: 'enabled',
            width: 90,
            render: (_, r) => (
              <Switch
                size="small"
                checked={r.enabled}
                disabled={!can('dept:edit')}
                aria-label={`${r.name}${r.enabled ? '已启用' : '已禁用'}`}
                onChange={(on) => toggle(r, on)}
              />
            ),
          },
          { title: '创建日期', dataIndex: 'createTime', width: 170 },
          {
            title: '操作',
            width: 190,
            render: (_, r) => (
              <ActionLinks
                links={[
                  { label: '新增下级', permission: 'dept:add', onClick: () => crud.open({ mode: 'add', row: r }) },
                  { label: '编辑', permission: 'dept:edit', onClick: () => crud.open({ mode: 'edit', row: r }) },
                  {
                    label: '删除',
                    permission: 'dept:del',
                    danger: true,
                    onClick: () => void crud.remove([r], deleteText(r.hasChildren ? `部门“${r.name}”及其全部下级部门` : `部门“${r.name}”`)),
                  },
                ]}
              />
            ),
          },
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
          <Radio.Group
            options={[
              { value: true, label: '启用' },
              { value: false, label: '禁用' },
            ]}
          />
        </Form.Item>
      </CrudFormModal>
    </div>
  );
}
