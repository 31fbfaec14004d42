import { Alert, Button, Empty, Form, Input, Modal, Select, Space, Switch, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { usePermission } from '../../../access/access';
import { contractSource } from '../../../app/rest-data';
import { screens } from '../../../contract/screens';
import type { RecordRow } from '../../../engine';
import { listTableProps, useCrud, useListQuery } from '../../../engine';
import { notify } from '../../../notify/notifier';
import { api, RequestError } from '../../../request';
import { bigScreenDesignerPath } from '../../../shared/app-paths';
import { requiredText } from '../../text-rules';
import { editDeleteLinks, NameSearchToolbar } from '../admin-list';
import { ScreenShareDialog } from './screen-share-dialog';
import { SCREEN_TYPES, type ScreenRow, screenPreviewPath, typeName } from './screen-types';
import { ViewPickerDialog } from './view-picker-dialog';

/**
 * 大屏管理 (/dev-tools/screen): screens of the four types. List, search, add, edit, delete; 设计
 * opens the big-screen designer (type 2) or a small editor that picks the views (types 1, 3, 4);
 * 预览; 分享 makes a signed, expiring link of a big screen and can renew its access key.
 */

const SOURCE = contractSource(screens, 'list', 'remove');
const BY_ID = { defaultSort: { field: 'id', order: 'desc' } } as const;

export function ScreenAdminPage() {
  const can = usePermission();
  const navigate = useNavigate();
  const list = useListQuery<ScreenRow>(SOURCE, BY_ID);
  const crud = useCrud<ScreenRow>(SOURCE, list);
  const nameState = useState('');
  const [name] = nameState;
  const [type, setType] = useState<number | undefined>();
  const [sharing, setSharing] = useState<ScreenRow | null>(null);
  const [picking, setPicking] = useState<ScreenRow | null>(null);

  const search = (next: { name?: string; type?: number }) => list.search({ name, type, ...next }, null);

  const design = (row: ScreenRow) => {
    if (row.type === 2) navigate(bigScreenDesignerPath(row.id));
    else setPicking(row);
  };
  const preview = (row: ScreenRow) => {
    if (row.type === 2) window.open(screenPreviewPath(row), '_blank', 'noopener');
    else navigate(screenPreviewPath(row));
  };

  const columns: ColumnsType<RecordRow<ScreenRow>> = [
    { title: '编号', dataIndex: 'id', width: 80 },
    { title: '名称', dataIndex: 'name' },
    {
      title: '类型',
      dataIndex: 'type',
      width: 120,
      render: (t: number) => <Tag color={t === 2 ? 'geekblue' : 'default'}>{typeName(t)}</Tag>,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: number) => (s === 1 ? <Tag color="success">启用</Tag> : <Tag>停用</Tag>),
    },
    {
      title: '设计',
      key: 'designed',
      width: 90,
      render: (_, row) => (row.disTemplate ? <Tag color="blue">已设计</Tag> : <Tag>未设计</Tag>),
    },
    { title: '更新时间', dataIndex: 'updateTime', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: 280,
      render: (_, r) => {
        const row = r as ScreenRow;
        return (
          <Space size={0} wrap>
            {can('screen:design') && (
              <Button type="link" size="small" onClick={() => design(row)}>
                设计
              </Button>
            )}
            <Button type="link" size="small" disabled={!row.disTemplate} onClick={() => preview(row)}>
              预览
            </Button>
            {row.type === 2 && can('screen:edit') && (
              <Button type="link" size="small" onClick={() => setSharing(row)}>
                分享
              </Button>
            )}
            {editDeleteLinks(can, 'screen', r, crud)}
          </Space>
        );
      },
    },
  ];

  return (
    <div className="app-container" data-testid="screen-admin-page">
      <NameSearchToolbar prefix="screen" width={220} name={nameState} onSearch={(v) => search({ name: v })} list={list} crud={crud}>
        <Select
          allowClear
          placeholder="类型"
          aria-label="类型"
          style={{ width: 140 }}
          value={type}
          options={SCREEN_TYPES}
          onChange={(v) => {
            setType(v);
            search({ type: v });
          }}
        />
      </NameSearchToolbar>
      <Table<RecordRow<ScreenRow>>
        {...listTableProps(list, { selectable: can('screen:del'), sizes: true })}
        size="middle"
        columns={columns}
        locale={{ emptyText: <Empty description="暂无大屏" /> }}
      />
      {crud.dialog && <ScreenFormDialog row={crud.dialog.row as ScreenRow | undefined} onClose={crud.close} onSaved={crud.saved} />}
      {sharing && <ScreenShareDialog screen={sharing} onClose={() => setSharing(null)} />}
      {picking && (
        <ViewPickerDialog
          screen={picking}
          onClose={() => setPicking(null)}
          onSaved={() => {
            setPicking(null);
            list.reload();
          }}
        />
      )}
    </div>
  );
}

interface ScreenForm {
  name: string;
  type: number;
  status: boolean;
}

function ScreenFormDialog({ row, onClose, onSaved }: { row?: ScreenRow; onClose(): void; onSaved(mode: 'add' | 'edit'): void }) {
  const [form] = Form.useForm<ScreenForm>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const initial: ScreenForm = { name: row?.name ?? '', type: row?.type ?? 2, status: (row?.status ?? 0) === 1 };

  const submit = async (values: ScreenForm) => {
    setSaving(true);
    setError(null);
    const body = { name: values.name.trim(), type: values.type, status: values.status ? 1 : 0 };
    try {
      if (row) await api(screens.calls.update, { body: { ...body, id: row.id } }, { silent: true });
      else await api(screens.calls.add, { body }, { silent: true });
      onSaved(row ? 'edit' : 'add');
    } catch (e) {
      setError(e instanceof RequestError ? e.message : '接口请求失败');
    } finally {
      setSaving(false);
    }
  };

  const close = async () => {
    if (form.isFieldsTouched() && !(await notify.confirm({ title: '提示', content: '修改尚未保存，确定关闭吗？' }))) return;
    onClose();
  };

  return (
    <Modal
      open
      title={row ? '编辑大屏' : '新增大屏'}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      maskClosable={false}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Form<ScreenForm> form={form} layout="vertical" initialValues={initial} onFinish={submit}>
        <Form.Item name="name" label="名称" rules={requiredText('请输入名称', 255, '名称最多 255 个字符')}>
          <Input autoFocus aria-label="名称" />
        </Form.Item>
        <Form.Item name="type" label="类型" rules={[{ required: true, message: '请选择类型' }]}>
          <Select aria-label="类型" options={SCREEN_TYPES} />
        </Form.Item>
        <Form.Item name="status" label="启用" valuePropName="checked">
          <Switch aria-label="启用" />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon role="alert" message={error} />}
    </Modal>
  );
}
