import { Form, Input, InputNumber, Popover, Radio, Table, Tag, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { UNPAGED } from '../../../engine';
import { MENU_ICON_NAMES, MenuIcon } from '../../../navigation/menu-icons';
import { allMenus, type MenuRow, menus, SOURCES } from './api';
import { SYSTEM_TABLE, sysColumns, YES_NO } from './columns';
import { CrudFormModal } from './form-modal';
import { confirmDeleteText, nest, TOP, type TreeOf } from './rules';
import { LoadError, SearchToolbar } from './toolbar';
import { useTreePage } from './use-tree-page';
import './system.css';

/** 菜单可见 answers whether the menu shows; the row keeps whether it is hidden. */
const SHOWN_CHOICES = [
  { value: false, label: '是' },
  { value: true, label: '否' },
];

interface MenuForm {
  id?: number;
  pid: number | null;
  type: number;
  title: string;
  icon?: string;
  path?: string;
  componentName?: string;
  component?: string;
  permission?: string;
  menuSort: number;
  hidden: boolean;
  cache: boolean;
  iFrame: boolean;
}

const TYPES = ['目录', '菜单', '按钮'];
const menuTitle = (r: MenuRow) => r.title;
/** Directories and menus hold children; buttons do not. */
const holdsChildren = (r: MenuRow) => r.type !== 2;

/** A grid of the icons the sidebar knows; the chosen one is pressed. Arrow keys move between buttons via Tab. */
function IconPicker({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const names = MENU_ICON_NAMES.filter((n) => n.toLowerCase().includes(filter.trim().toLowerCase()));
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomLeft"
      content={
        <div>
          <Input
            size="small"
            allowClear
            placeholder="搜索图标"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            style={{ marginBottom: 8 }}
          />
          <div className="sys-icon-grid" role="listbox" aria-label="图标">
            {names.map((n) => (
              <button
                key={n}
                type="button"
                aria-pressed={n === value}
                title={n}
                onClick={() => {
                  onChange?.(n);
                  setOpen(false);
                }}
              >
                <MenuIcon name={n} />
                <span>{n}</span>
              </button>
            ))}
          </div>
        </div>
      }
    >
      <Input readOnly value={value} placeholder="点击选择图标" prefix={value ? <MenuIcon name={value} /> : undefined} aria-label="图标" />
    </Popover>
  );
}

/** 菜单管理: directories, menus and buttons as a tree table, with add, edit and delete. */
export function MenuAdminPage() {
  const [blurry, setBlurry] = useState('');
  const [form] = Form.useForm<MenuForm>();
  const type = Form.useWatch('type', form);
  // 新增下级 opens the add dialog on the parent's row.
  const { list, crud, editing, parentId, parents } = useTreePage<MenuRow>({
    source: SOURCES.menus,
    key: `menus:${blurry}`,
    load: (signal) => (blurry ? menus.search(blurry, signal) : allMenus(signal)),
    top: '顶级类目',
    title: menuTitle,
    holds: holdsChildren,
  });
  const tree = useMemo(() => (blurry ? (list.data ?? []).map((r) => ({ ...r })) : nest(list.data ?? [])), [list.data, blurry]);

  const save = async (v: MenuForm, mode: 'add' | 'edit') => {
    const body = {
      ...v,
      pid: v.pid === TOP ? null : v.pid,
      title: v.title.trim(),
      path: v.path?.trim() || null,
      component: v.component?.trim() || null,
      componentName: v.componentName?.trim() || null,
      permission: v.permission?.trim() || null,
      icon: v.icon || null,
    };
    await (mode === 'edit' ? menus.edit(body) : menus.add(body));
  };

  return (
    <div className="sys-page" data-page="system-menu">
      <SearchToolbar
        placeholder="输入菜单名称搜索"
        label="搜索菜单"
        onSearch={setBlurry}
        add={{ permission: 'menu:add', onClick: () => crud.open({ mode: 'add' }) }}
      />
      <LoadError error={list.error} retry={list.reload} />
      <Table<TreeOf<MenuRow>>
        {...SYSTEM_TABLE}
        {...UNPAGED}
        rowKey="id"
        loading={list.loading}
        dataSource={tree}
        scroll={{ y: 'calc(100vh - 320px)' }}
        columns={[
          { title: '菜单标题', dataIndex: 'title', width: 220 },
          {
            title: '图标',
            dataIndex: 'icon',
            width: 60,
            align: 'center',
            render: (v: string | null) => (v ? <MenuIcon name={v} /> : null),
          },
          { title: '类型', dataIndex: 'type', width: 70, render: (t: number) => <Tag>{TYPES[t] ?? t}</Tag> },
          { title: '排序', dataIndex: 'menuSort', width: 70, align: 'center' },
          { title: '权限标识', dataIndex: 'permission', ellipsis: true },
          { title: '路由地址', dataIndex: 'path', ellipsis: true },
          { title: '组件路径', dataIndex: 'component', ellipsis: true },
          { title: '可见', dataIndex: 'hidden', width: 60, render: (h: boolean) => (h ? '否' : '是') },
          { title: '缓存', dataIndex: 'cache', width: 60, render: (c: boolean) => (c ? '是' : '否') },
          sysColumns.actions({ width: 180, prefix: 'menu', crud }, (r, { edit, del }) => [
            r.type !== 2 && { label: '新增下级', permission: 'menu:add', onClick: () => crud.open({ mode: 'add', row: r }) },
            edit,
            del(() => void crud.remove([r], confirmDeleteText(r.hasChildren ? `菜单“${r.title}”及其全部下级菜单` : `菜单“${r.title}”`))),
          ]),
        ]}
      />
      <CrudFormModal<MenuForm>
        crud={crud}
        what="菜单"
        form={form}
        width={680}
        initialValues={
          editing
            ? {
                id: editing.id,
                pid: editing.pid ?? TOP,
                type: editing.type,
                title: editing.title,
                icon: editing.icon ?? undefined,
                path: editing.path ?? '',
                componentName: editing.componentName ?? '',
                component: editing.component ?? '',
                permission: editing.permission ?? '',
                menuSort: editing.menuSort,
                hidden: editing.hidden,
                cache: editing.cache,
                iFrame: editing.iFrame,
              }
            : { pid: parentId ?? TOP, type: parentId ? 1 : 0, menuSort: 999, hidden: false, cache: false, iFrame: false }
        }
        save={save}
      >
        <Form.Item name="type" label="菜单类型">
          <Radio.Group optionType="button" options={TYPES.map((label, value) => ({ value, label }))} />
        </Form.Item>
        <Form.Item
          name="title"
          label={type === 2 ? '按钮名称' : '菜单标题'}
          rules={[{ required: true, whitespace: true, message: '请输入标题' }]}
        >
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="pid" label="上级类目">
          <TreeSelect treeData={parents} treeDefaultExpandedKeys={[TOP]} showSearch treeNodeFilterProp="title" />
        </Form.Item>
        {type !== 2 && (
          <>
            <Form.Item name="icon" label="菜单图标">
              <IconPicker />
            </Form.Item>
            <Form.Item name="path" label="路由地址" rules={[{ required: true, whitespace: true, message: '请输入路由地址' }]}>
              <Input maxLength={255} placeholder="如 user，或外链 https://…" />
            </Form.Item>
          </>
        )}
        {type === 1 && (
          <>
            <Form.Item name="componentName" label="组件名称">
              <Input maxLength={255} placeholder="如 User" />
            </Form.Item>
            <Form.Item name="component" label="组件路径">
              <Input maxLength={255} placeholder="如 system/user/index" />
            </Form.Item>
          </>
        )}
        {type !== 0 && (
          <Form.Item
            name="permission"
            label="权限标识"
            rules={type === 2 ? [{ required: true, whitespace: true, message: '请输入权限标识' }] : []}
          >
            <Input maxLength={255} placeholder="如 user:add" />
          </Form.Item>
        )}
        <Form.Item name="menuSort" label="排序" rules={[{ required: true, message: '请输入排序' }]}>
          <InputNumber min={-999999} max={999999} />
        </Form.Item>
        {type !== 2 && (
          <>
            <Form.Item name="hidden" label="菜单可见">
              <Radio.Group options={SHOWN_CHOICES} />
            </Form.Item>
            <Form.Item name="cache" label="菜单缓存">
              <Radio.Group options={YES_NO} />
            </Form.Item>
            <Form.Item name="iFrame" label="外链菜单">
              <Radio.Group options={YES_NO} />
            </Form.Item>
          </>
        )}
      </CrudFormModal>
    </div>
  );
}
