import { Button, Card, Form, Input, Modal, Space, Table, Tag, TreeSelect, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Access, usePermission } from '../../../access/access';
import { publishConfirm, readJsonObject } from '../../../designer/view/designer-model';
import { FIELD_NAME, findMenu, viewPath } from '../../../model';
import { setCloseGuard } from '../../../navigation/close-guards';
import { notify } from '../../../notify/notifier';
import { sessionStore } from '../../../session/session-store';
import { viewPreviewPath } from '../../../shared/app-paths';
import { validateOrReveal } from '../../validate-form';
import { componentNameOf, type MenuNode, parentMenuOf, type ViewRow, viewApi } from './generation-api';

const ViewDesigner = lazy(() => import('../../../designer/view/view-designer').then((m) => ({ default: m.ViewDesigner })));

/** The labels from the root to a menu, e.g. 危废管理 / 危废入库; undefined when the tree has no such menu. */
function menuPath(tree: readonly MenuNode[], id: number | null | undefined): string | undefined {
  const at = id == null ? undefined : findMenu(tree, (n) => n.id === id);
  return at && [...at.parents.map((p) => p.node), at.node].map((n) => n.label).join(' / ');
}

/** The menu a menu sits under, from the tree; undefined at the top level or when not found. */
function parentIn(tree: readonly MenuNode[], id: number | null | undefined): number | undefined {
  return id == null ? undefined : findMenu(tree, (n) => n.id === id)?.parents.at(-1)?.node.id;
}

interface TreeOption {
  value: number;
  title: string;
  children?: TreeOption[];
}
const treeOptions = (nodes: readonly MenuNode[]): TreeOption[] =>
  nodes.map((n) => ({ value: n.id, title: n.label, ...(n.children?.length ? { children: treeOptions(n.children) } : {}) }));

interface BasicValues {
  name: string;
  componentName: string;
  pid?: number;
}

/** 新增 / 编辑: the name, the component name (permission prefix and route) and the parent menu. */
function BasicDialog({
  row,
  menus,
  menusFailed,
  onClose,
  onDone,
}: {
  row: ViewRow | null;
  menus: MenuNode[];
  menusFailed: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<BasicValues>();
  const [saving, setSaving] = useState(false);
  const initial: BasicValues = row
    ? { name: row.name, componentName: componentNameOf(row), pid: parentMenuOf(row) ?? parentIn(menus, row.menuId) }
    : { name: '', componentName: '' };
  const submit = async () => {
    const v = await validateOrReveal(form);
    if (!v) return;
    // Without the menu tree the parent is not shown, so the stored one is kept as it is.
    const parent = menusFailed ? {} : { pid: v.pid ?? null };
    const disMenu = JSON.stringify({
      ...readJsonObject(row?.disMenu),
      componentName: v.componentName.trim(),
      name: v.name.trim(),
      ...parent,
    });
    setSaving(true);
    try {
      if (row) await viewApi.update({ id: row.id, name: v.name.trim(), disMenu });
      else await viewApi.add({ name: v.name.trim(), menuId: null, disMenu });
      notify.success(row ? '修改成功' : '新增成功');
      onDone();
    } catch {
      // The request layer has shown the server's message; the dialog keeps what was typed.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={row ? '编辑视图' : '新增视图'}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={saving}
      okText="确定"
      cancelText="取消"
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <Form.Item name="name" label="视图名称" rules={[{ required: true, whitespace: true, message: '请输入视图名称' }, { max: 255 }]}>
          <Input autoFocus placeholder="例如：危废入库" />
        </Form.Item>
        <Form.Item
          name="componentName"
          label="组件名称"
          extra="权限前缀与路由名，例如 stockIn（权限 stockIn:add）"
          rules={[
            { required: true, whitespace: true, message: '请输入组件名称' },
            { pattern: FIELD_NAME, message: '组件名称以字母开头，只含字母、数字和下划线' },
          ]}
        >
          <Input placeholder="stockIn" />
        </Form.Item>
        <Form.Item
          name="pid"
          label="上级菜单"
          extra={menusFailed ? '无法读取菜单（需要菜单管理权限），发布后不加入菜单' : '发布后页面出现在此菜单下'}
        >
          <TreeSelect
            allowClear
            showSearch
            treeNodeFilterProp="title"
            disabled={menusFailed}
            treeData={treeOptions(menus)}
            placeholder="不选则作为顶级菜单"
            treeDefaultExpandAll={false}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 视图管理: the list of view definitions, their basic data, and the designer. */
export function GenerationPage() {
  const [params, setParams] = useSearchParams();
  const designId = Number(params.get('design'));
  const navigate = useNavigate();
  const can = usePermission();
  const { pathname } = useLocation();
  const closeGuard = useCallback((ask: () => Promise<boolean>) => setCloseGuard(pathname, ask), [pathname]);
  const [query, setQuery] = useState({ page: 0, size: 10, name: '' });
  const [nameInput, setNameInput] = useState('');
  const [data, setData] = useState<{ rows: ViewRow[]; total: number }>({ rows: [], total: 0 });
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState<string | undefined>();
  const [menus, setMenus] = useState<MenuNode[]>([]);
  const [menusFailed, setMenusFailed] = useState(false);
  const [dialog, setDialog] = useState<{ row: ViewRow | null } | undefined>();
  const [busy, setBusy] = useState<number | undefined>();
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads asks for the same page again
  useEffect(() => {
    const ctl = new AbortController();
    setLoading(true);
    viewApi
      .list({ page: query.page, size: query.size, name: query.name || undefined }, ctl.signal)
      .then((page) => {
        setData({ rows: page.content, total: page.totalElements });
        setFailed(undefined);
      })
      .catch((e: unknown) => {
        if (!ctl.signal.aborted) setFailed(e instanceof Error ? e.message : String(e));
      })
      .finally(() => {
        if (!ctl.signal.aborted) setLoading(false);
      });
    return () => ctl.abort();
  }, [query, reloads]);

  const loadMenus = useCallback(() => {
    viewApi
      .menuTree()
      .then((tree) => {
        setMenus(tree);
        setMenusFailed(false);
      })
      .catch(() => setMenusFailed(true));
  }, []);
  useEffect(() => loadMenus(), [loadMenus]);

  const remove = async (row: ViewRow) => {
    const ok = await notify.confirm({
      title: '删除视图',
      content: `确定删除视图「${row.name}」吗？它的数据表和已录入的数据会一并删除，且不能恢复。`,
      okText: '删除',
    });
    if (!ok) return;
    setBusy(row.id);
    try {
      await viewApi.remove([row.id]);
      notify.success('删除成功');
      reload();
    } catch {
      // shown by the request layer
    } finally {
      setBusy(undefined);
    }
  };

  const publish = async (row: ViewRow) => {
    if (!(await notify.confirm(publishConfirm(row.name)))) return;
    setBusy(row.id);
    try {
      const res = await viewApi.publish(row.id);
      notify.success(res.message || '发布成功');
      reload();
      loadMenus();
      await sessionStore.reloadMenus().catch(() => undefined);
    } catch {
      // shown by the request layer
    } finally {
      setBusy(undefined);
    }
  };

  const columns: ColumnsType<ViewRow> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: '名称', dataIndex: 'name', ellipsis: true },
    {
      title: '组件名称',
      key: 'componentName',
      render: (_, r) => componentNameOf(r) || <Typography.Text type="secondary">未设置</Typography.Text>,
    },
    {
      title: '菜单',
      key: 'menu',
      ellipsis: true,
      render: (_, r) => {
        const own = menuPath(menus, r.menuId);
        if (own) return own;
        const parent = menuPath(menus, parentMenuOf(r));
        return parent ? <Typography.Text type="secondary">{parent}（发布后加入）</Typography.Text> : '—';
      },
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (_, r) =>
        !r.disTemplate ? <Tag>未设计</Tag> : r.status === 1 ? <Tag color="success">已发布</Tag> : <Tag color="warning">草稿</Tag>,
    },
    { title: '最后更新', dataIndex: 'updateTime', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: 340,
      render: (_, r) => {
        const name = componentNameOf(r);
        return (
          <Space size={0} wrap>
            <Access roles={['generation:edit']}>
              <Button type="link" size="small" onClick={() => setDialog({ row: r })}>
                编辑
              </Button>
            </Access>
            <Access roles={['generation:design']}>
              <Button type="link" size="small" onClick={() => setParams({ design: String(r.id) })}>
                设计
              </Button>
            </Access>
            <Access roles={['generation:publish']}>
              <Button type="link" size="small" disabled={!r.disTemplate} loading={busy === r.id} onClick={() => publish(r)}>
                发布
              </Button>
            </Access>
            <Button type="link" size="small" disabled={!r.disTemplate} onClick={() => navigate(viewPreviewPath(r.id))}>
              预览
            </Button>
            <Button type="link" size="small" disabled={r.status !== 1 || !name} onClick={() => navigate(viewPath(name, r.id))}>
              打开
            </Button>
            <Access roles={['generation:del']}>
              <Button type="link" size="small" danger onClick={() => remove(r)}>
                删除
              </Button>
            </Access>
          </Space>
        );
      },
    },
  ];

  if (Number.isSafeInteger(designId) && designId > 0)
    return (
      <Suspense fallback={<Card loading />}>
        <ViewDesigner
          key={designId}
          viewId={designId}
          closeGuard={closeGuard}
          canPublish={can('generation:publish')}
          onClose={() => {
            setParams({});
            reload();
          }}
          onPublished={() => {
            loadMenus();
            void sessionStore.reloadMenus().catch(() => undefined);
          }}
        />
      </Suspense>
    );

  return (
    <Card variant="borderless" className="generation-page">
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder="按名称搜索"
          value={nameInput}
          onChange={(e) => setNameInput(e.target.value)}
          onSearch={(v) => setQuery((q) => ({ ...q, page: 0, name: v.trim() }))}
          style={{ width: 240 }}
          aria-label="按名称搜索"
        />
        <Access roles={['generation:add']}>
          <Button type="primary" onClick={() => setDialog({ row: null })}>
            新增
          </Button>
        </Access>
        <Button onClick={reload}>刷新</Button>
      </Space>
      {failed && !loading ? (
        <Typography.Paragraph type="danger">
          视图列表加载失败：{failed}{' '}
          <Button size="small" onClick={reload}>
            重试
          </Button>
        </Typography.Paragraph>
      ) : null}
      <Table<ViewRow>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={data.rows}
        locale={{ emptyText: query.name ? `没有名称包含「${query.name}」的视图` : '还没有视图，点击「新增」创建一个' }}
        pagination={{
          current: query.page + 1,
          pageSize: query.size,
          total: data.total,
          showSizeChanger: true,
          showTotal: (t) => `共 ${t} 条`,
          onChange: (page, size) => setQuery((q) => ({ ...q, page: size !== q.size ? 0 : page - 1, size })),
        }}
        scroll={{ x: 1000 }}
      />
      {dialog ? (
        <BasicDialog
          row={dialog.row}
          menus={menus}
          menusFailed={menusFailed}
          onClose={() => setDialog(undefined)}
          onDone={() => {
            setDialog(undefined);
            reload();
          }}
        />
      ) : null}
    </Card>
  );
}
