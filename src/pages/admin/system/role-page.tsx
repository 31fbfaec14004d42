import { Button, Empty, Form, Input, InputNumber, Select, Spin, Table, Tag, Tree, TreeSelect } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { usePermission } from '../../../access/access';
import type { MenuTreeNode } from '../../../contract/menus';
import { pickableTableProps, useListCrud } from '../../../engine';
import { setCloseGuard } from '../../../navigation/close-guards';
import { notify } from '../../../notify/notifier';
import { useLookup } from '../../../request';
import { DATA_SCOPES, DEFAULT_DATA_SCOPE, menus, type RoleRow, roles, type ScopeDeptNode, SOURCES } from './api';
import { ACTIONS_WIDTH, SYSTEM_TABLE, sysColumns } from './columns';
import { CrudFormModal, confirmUnsaved } from './form-modal';
import { confirmDeleteText, type FlatNode, MESSAGES, SYSTEM_CRUD, toggleGrant } from './rules';
import { LoadError, SearchToolbar } from './toolbar';
import './system.css';

interface RoleForm {
  id?: number;
  name: string;
  level: number;
  dataScope: string;
  /** The departments of a 自定义 role. */
  depts: number[];
  description?: string;
}

const CUSTOM_SCOPE = '自定义';
const DEPTS_REQUIRED = '数据权限为自定义时请至少选择一个部门';
/**
 * The role table's columns together, 描述 at its narrowest (it takes what room is left): beside the menu
 * tree on a 1366 px screen, sidebar open, the table is some 730 px wide and shows every column.
 */
const ROLE_TABLE_WIDTH = 120 + 64 + 100 + 56 + 140 + 100 + ACTIONS_WIDTH;

interface DeptOption {
  value: number;
  title: string;
  children?: DeptOption[];
}

const toDeptOptions = (nodes: ScopeDeptNode[]): DeptOption[] =>
  nodes.map((n) => ({
    value: n.id,
    title: n.enabled ? n.name : `${n.name}（已停用）`,
    children: n.children ? toDeptOptions(n.children) : undefined,
  }));

/** The 数据权限 column: the scope, and for 自定义 the chosen departments. */
function scopeText(r: RoleRow): string {
  if (r.dataScope !== CUSTOM_SCOPE || !r.depts.length) return r.dataScope;
  return `${r.dataScope}：${r.depts.map((d) => d.name).join('、')}`;
}

function flatten(nodes: MenuTreeNode[], pid: number | null = null, out: FlatNode[] = []): FlatNode[] {
  for (const n of nodes) {
    out.push({ id: n.id, pid });
    if (n.children) flatten(n.children, n.id, out);
  }
  return out;
}

interface GrantNode {
  key: number;
  title: string;
  children?: GrantNode[];
}

const toTreeData = (nodes: MenuTreeNode[]): GrantNode[] =>
  nodes.map((n) => ({ key: n.id, title: n.label, children: n.children ? toTreeData(n.children) : undefined }));

/**
 * 角色管理: roles on the left; the selected role's menus and buttons on the right as a checkbox tree,
 * saved with 保存授权. A changed grant reaches the role's users at their next menu load.
 */
export function RoleAdminPage() {
  const can = usePermission();
  const { list, crud } = useListCrud<RoleRow>(SOURCES.roles, undefined, SYSTEM_CRUD);
  const dialog = crud.dialog;
  const [current, setCurrent] = useState<RoleRow | null>(null);
  const [granted, setGranted] = useState<number[]>([]);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<RoleForm>();
  const scope = Form.useWatch('dataScope', form);
  const canEditRoles = can('role:add') || can('role:edit');

  const tree = useLookup('menus', menus.tree);
  const flat = useMemo(() => flatten(tree.data ?? []), [tree.data]);
  const treeData = useMemo(() => toTreeData(tree.data ?? []), [tree.data]);
  // The departments a 自定义 role picks from: read again each time a dialog turns to 自定义 (the department
  // page may have changed them since); until they arrive the role's own departments stand in.
  const wantDepts = canEditRoles && dialog !== null && scope === CUSTOM_SCOPE;
  const [deptsAsked, setDeptsAsked] = useState(0);
  useEffect(() => {
    if (wantDepts) setDeptsAsked((n) => n + 1);
  }, [wantDepts]);
  const deptTree = useLookup(deptsAsked ? `depts:${deptsAsked}` : null, roles.deptTree);
  const deptOptions = useMemo<DeptOption[]>(
    () => (deptTree.data ? toDeptOptions(deptTree.data) : (dialog?.row?.depts ?? []).map((d) => ({ value: d.id, title: d.name }))),
    [deptTree.data, dialog],
  );

  // The selected role follows the reloaded list (its grant may have changed).
  useEffect(() => {
    if (!current) return;
    const fresh = list.rows.find((r) => r.id === current.id);
    if (fresh && fresh !== current && !dirty) {
      setCurrent(fresh);
      setGranted(fresh.menus.map((m) => m.id));
    }
  }, [list.rows, current, dirty]);

  // Closing the tab with an unsaved grant asks first.
  const { pathname } = useLocation();
  useEffect(() => {
    if (!dirty || !current) return;
    return setCloseGuard(pathname, () => confirmUnsaved(`“${current.name}”的授权`));
  }, [dirty, current, pathname]);

  const select = async (row: RoleRow) => {
    if (row.id === current?.id) return;
    if (dirty && !(await notify.confirm({ title: MESSAGES.confirmTitle, content: '当前角色的授权尚未保存，确定放弃修改吗？' }))) return;
    setCurrent(row);
    setGranted(row.menus.map((m) => m.id));
    setDirty(false);
  };

  const saveGrant = async () => {
    if (!current) return;
    setSaving(true);
    try {
      await roles.grant(current.id, granted);
      notify.success('授权已保存，用户下次加载菜单时生效');
      setDirty(false);
      list.reload();
    } catch {
      // The request client has shown the server's message; the checked boxes stay as they are.
    } finally {
      setSaving(false);
    }
  };

  const save = async (v: RoleForm, mode: 'add' | 'edit') => {
    const body = {
      id: v.id,
      name: v.name.trim(),
      level: v.level,
      dataScope: v.dataScope,
      depts: v.dataScope === CUSTOM_SCOPE ? (v.depts ?? []) : [],
      description: v.description?.trim() || null,
    };
    await (mode === 'edit' ? roles.edit(body) : roles.add(body));
  };

  const remove = async (r: RoleRow) => {
    if ((await crud.remove([r], confirmDeleteText(`角色“${r.name}”`))) && current?.id === r.id) setCurrent(null);
  };

  const canGrant = can('role:edit');
  return (
    <div className="sys-page" data-page="system-role">
      <SearchToolbar
        placeholder="输入角色名称搜索"
        label="搜索角色"
        onSearch={(blurry) => list.search({ blurry })}
        add={{ permission: 'role:add', onClick: () => crud.open({ mode: 'add' }) }}
      />
      <LoadError error={list.error} retry={list.reload} />
      <div className="sys-split sys-split-wide">
        <Table<RoleRow>
          {...pickableTableProps(list, current, (r) => void select(r))}
          {...SYSTEM_TABLE}
          // Every column keeps its width (the name wraps, longer text ends in an ellipsis with a tooltip):
          // beside the menu tree a screen narrower than that scrolls sideways, 操作 staying on the right.
          tableLayout="fixed"
          scroll={{ x: ROLE_TABLE_WIDTH }}
          columns={[
            { title: '名称', dataIndex: 'name', width: 120 },
            {
              title: '归属',
              width: 64,
              // The platform's roles are changed only under 全部; a company's belong to it alone.
              render: (_, r) => (r.companyId === null ? <Tag>平台</Tag> : <Tag color="blue">企业</Tag>),
            },
            {
              title: '数据权限',
              width: 100,
              ellipsis: { showTitle: false },
              render: (_, r) => <span title={scopeText(r)}>{scopeText(r)}</span>,
            },
            { title: '级别', dataIndex: 'level', width: 56 },
            { title: '描述', dataIndex: 'description', ellipsis: true },
            {
              ...sysColumns.created,
              width: 100,
              render: (t: string | null) => <span title={t ?? undefined}>{t?.slice(0, 10)}</span>,
            },
            {
              ...sysColumns.actions({ width: ACTIONS_WIDTH, prefix: 'role', crud, stop: true }, (r, { edit, del }) => [
                edit,
                del(() => void remove(r)),
              ]),
              fixed: 'right',
            },
          ]}
        />
        <aside className="sys-side" aria-label="菜单分配">
          <div className="sys-side-title">
            <span>菜单分配{current ? `：${current.name}` : ''}</span>
            {current && canGrant && (
              <Button type="primary" size="small" loading={saving} disabled={!dirty} onClick={saveGrant}>
                保存授权
              </Button>
            )}
          </div>
          <LoadError error={tree.error} retry={tree.reload} />
          {!current ? (
            <Empty description="选择左侧的角色以分配菜单" />
          ) : tree.loading && !tree.data ? (
            <Spin />
          ) : (
            <Tree
              className="sys-grant-tree"
              checkable
              checkStrictly
              selectable={false}
              disabled={!canGrant}
              defaultExpandedKeys={flat.filter((n) => n.pid === null).map((n) => n.id)}
              treeData={treeData}
              checkedKeys={{ checked: granted, halfChecked: [] }}
              onCheck={(_, info) => {
                setGranted((g) => toggleGrant(flat, g, Number(info.node.key), info.checked));
                setDirty(true);
              }}
            />
          )}
        </aside>
      </div>
      <CrudFormModal<RoleForm>
        crud={crud}
        what="角色"
        form={form}
        initialValues={
          dialog?.row
            ? {
                id: dialog.row.id,
                name: dialog.row.name,
                level: dialog.row.level,
                dataScope: dialog.row.dataScope,
                depts: dialog.row.depts.map((d) => d.id),
                description: dialog.row.description ?? '',
              }
            : { level: 3, dataScope: DEFAULT_DATA_SCOPE, depts: [] }
        }
        save={save}
      >
        <Form.Item name="name" label="角色名称" rules={[{ required: true, whitespace: true, message: '请输入角色名称' }]}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="level" label="角色级别" rules={[{ required: true, message: '请输入角色级别' }]}>
          <InputNumber min={1} max={99} />
        </Form.Item>
        <Form.Item name="dataScope" label="数据权限" rules={[{ required: true, message: '请选择数据权限' }]}>
          <Select aria-label="数据权限" options={DATA_SCOPES.map((d) => ({ value: d, label: d }))} />
        </Form.Item>
        {scope === CUSTOM_SCOPE && (
          <Form.Item
            name="depts"
            label="数据部门"
            required
            rules={[{ required: true, type: 'array', min: 1, message: DEPTS_REQUIRED }]}
            extra={deptTree.error ? <LoadError error={deptTree.error} retry={deptTree.reload} /> : undefined}
          >
            <TreeSelect
              aria-label="数据部门"
              multiple
              showSearch={{ treeNodeFilterProp: 'title' }}
              treeDefaultExpandAll
              allowClear
              placeholder="选择可见其数据的部门"
              loading={deptTree.loading}
              treeData={deptOptions}
              notFoundContent={deptTree.loading ? <Spin size="small" /> : deptTree.error ? '部门加载失败' : '暂无部门'}
            />
          </Form.Item>
        )}
        <Form.Item name="description" label="描述">
          <Input.TextArea rows={3} maxLength={255} />
        </Form.Item>
      </CrudFormModal>
    </div>
  );
}
