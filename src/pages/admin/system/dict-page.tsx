import { Button, Empty, Form, Input, InputNumber, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { Access } from '../../../access/access';
import { notify } from '../../../notify/notifier';
import { type DictEntry, type DictRow, dicts } from './api';
import { deleteAfterConfirm, FormModal, LoadError, pickableRow, useRemote } from './common';
import { MESSAGES } from './rules';

interface DictForm {
  id?: number;
  name: string;
  description?: string;
}

interface EntryForm {
  id?: number;
  label: string;
  value: string;
  type: string;
  dictSort: number;
}

const PAGE_SIZE = 10;
const TAG_TYPES = [
  { value: '', label: '默认' },
  { value: 'success', label: 'success' },
  { value: 'info', label: 'info' },
  { value: 'warning', label: 'warning' },
  { value: 'danger', label: 'danger' },
];
const tagColor = (t: string) => ({ success: 'success', info: 'processing', warning: 'warning', danger: 'error' })[t] ?? 'default';

/** 字典管理: the dictionaries on the left, the entries of the selected one on the right. */
export function DictAdminPage() {
  const [blurryInput, setBlurryInput] = useState('');
  const [blurry, setBlurry] = useState('');
  const [page, setPage] = useState(0);
  const [current, setCurrent] = useState<DictRow | null>(null);
  const [dictDialog, setDictDialog] = useState<{ mode: 'add' | 'edit'; row?: DictRow } | null>(null);
  const [entryDialog, setEntryDialog] = useState<{ mode: 'add' | 'edit'; row?: DictEntry } | null>(null);
  const [dictForm] = Form.useForm<DictForm>();
  const [entryForm] = Form.useForm<EntryForm>();

  const list = useRemote(() => dicts.list({ page, size: PAGE_SIZE, blurry }), [page, blurry]);
  const entries = useRemote(async () => (current ? (await dicts.entries(current.name)).content : []), [current?.name]);

  const submitDict = async (v: DictForm) => {
    const body = { id: v.id, name: v.name.trim(), description: v.description?.trim() || null };
    if (dictDialog?.mode === 'edit') await dicts.edit(body);
    else await dicts.add(body);
    notify.success(dictDialog?.mode === 'edit' ? MESSAGES.edited : MESSAGES.added);
    // A renamed dictionary keeps its entries selected under its new name.
    if (dictDialog?.mode === 'edit' && current && current.id === v.id)
      setCurrent({ ...current, name: body.name, description: body.description ?? null });
    setDictDialog(null);
    list.reload();
  };

  const submitEntry = async (v: EntryForm) => {
    if (!current) return;
    const body = { ...v, label: v.label.trim(), value: v.value.trim(), dict: { id: current.id } };
    if (entryDialog?.mode === 'edit') await dicts.editEntry(body);
    else await dicts.addEntry(body);
    notify.success(entryDialog?.mode === 'edit' ? MESSAGES.edited : MESSAGES.added);
    setEntryDialog(null);
    entries.reload();
  };

  const search = () => {
    setPage(0);
    setBlurry(blurryInput.trim());
  };

  return (
    <div className="sys-page" data-page="system-dict">
      <div className="sys-split sys-split-half">
        <section className="sys-page" aria-label="字典列表">
          <div className="sys-toolbar">
            <Input
              allowClear
              placeholder="输入名称或描述搜索"
              style={{ width: 200 }}
              value={blurryInput}
              onChange={(e) => setBlurryInput(e.target.value)}
              onPressEnter={search}
              aria-label="搜索字典"
            />
            <Button type="primary" onClick={search}>
              搜索
            </Button>
            <span className="sys-grow" />
            <Access roles={['dict:add']}>
              <Button type="primary" onClick={() => setDictDialog({ mode: 'add' })}>
                新增
              </Button>
            </Access>
          </div>
          <LoadError error={list.error} retry={list.reload} />
          <Table<DictRow>
            rowKey="id"
            size="middle"
            bordered
            loading={list.loading}
            dataSource={list.data?.content ?? []}
            rowClassName={(r) => (r.id === current?.id ? 'ant-table-row-selected' : '')}
            onRow={pickableRow(
              (r: DictRow) => setCurrent(r),
              (r) => r.id === current?.id,
            )}
            pagination={{
              current: page + 1,
              pageSize: PAGE_SIZE,
              total: list.data?.totalElements ?? 0,
              showTotal: (t) => `共 ${t} 条`,
              onChange: (p) => setPage(p - 1),
            }}
            columns={[
              { title: '名称', dataIndex: 'name' },
              { title: '描述', dataIndex: 'description', ellipsis: true },
              {
                title: '操作',
                width: 120,
                render: (_, r) => (
                  <Space size={4} onClick={(e) => e.stopPropagation()}>
                    <Access roles={['dict:edit']}>
                      <Button size="small" type="link" onClick={() => setDictDialog({ mode: 'edit', row: r })}>
                        编辑
                      </Button>
                    </Access>
                    <Access roles={['dict:del']}>
                      <Button
                        size="small"
                        type="link"
                        danger
                        onClick={() =>
                          deleteAfterConfirm(
                            `字典“${r.name}”及其全部字典详情`,
                            () => dicts.remove([r.id]),
                            () => {
                              if (current?.id === r.id) setCurrent(null);
                              list.reload();
                            },
                          )
                        }
                      >
                        删除
                      </Button>
                    </Access>
                  </Space>
                ),
              },
            ]}
          />
        </section>
        <section className="sys-page" aria-label="字典详情">
          <div className="sys-toolbar">
            <strong>{current ? `字典详情：${current.name}${current.description ? `（${current.description}）` : ''}` : '字典详情'}</strong>
            <span className="sys-grow" />
            {current && (
              <Access roles={['dict:add']}>
                <Button type="primary" onClick={() => setEntryDialog({ mode: 'add' })}>
                  新增详情
                </Button>
              </Access>
            )}
          </div>
          {!current ? (
            <Empty description="点击左侧字典查看详情" />
          ) : (
            <>
              <LoadError error={entries.error} retry={entries.reload} />
              <Table<DictEntry>
                rowKey="id"
                size="middle"
                bordered
                loading={entries.loading}
                dataSource={entries.data ?? []}
                pagination={false}
                columns={[
                  { title: '字典标签', dataIndex: 'label', render: (v: string, r) => <Tag color={tagColor(r.type)}>{v}</Tag> },
                  { title: '字典值', dataIndex: 'value' },
                  { title: '排序', dataIndex: 'dictSort', width: 70, align: 'center' },
                  {
                    title: '操作',
                    width: 120,
                    render: (_, r) => (
                      <Space size={4}>
                        <Access roles={['dict:edit']}>
                          <Button size="small" type="link" onClick={() => setEntryDialog({ mode: 'edit', row: r })}>
                            编辑
                          </Button>
                        </Access>
                        <Access roles={['dict:del']}>
                          <Button
                            size="small"
                            type="link"
                            danger
                            onClick={() => deleteAfterConfirm(`字典详情“${r.label}”`, () => dicts.removeEntry(r.id), entries.reload)}
                          >
                            删除
                          </Button>
                        </Access>
                      </Space>
                    ),
                  },
                ]}
              />
            </>
          )}
        </section>
      </div>
      <FormModal<DictForm>
        title={dictDialog?.mode === 'edit' ? '编辑字典' : '新增字典'}
        open={dictDialog !== null}
        form={dictForm}
        initialValues={
          dictDialog?.row ? { id: dictDialog.row.id, name: dictDialog.row.name, description: dictDialog.row.description ?? '' } : {}
        }
        onSubmit={submitDict}
        onClose={() => setDictDialog(null)}
      >
        <Form.Item name="name" label="字典名称" rules={[{ required: true, whitespace: true, message: '请输入字典名称' }]}>
          <Input maxLength={100} placeholder="字母开头，如 wasteType" />
        </Form.Item>
        <Form.Item name="description" label="描述">
          <Input maxLength={255} />
        </Form.Item>
      </FormModal>
      <FormModal<EntryForm>
        title={entryDialog?.mode === 'edit' ? '编辑字典详情' : '新增字典详情'}
        open={entryDialog !== null}
        form={entryForm}
        initialValues={
          entryDialog?.row
            ? {
                id: entryDialog.row.id,
                label: entryDialog.row.label,
                value: entryDialog.row.value,
                type: entryDialog.row.type,
                dictSort: entryDialog.row.dictSort,
              }
            : { type: '', dictSort: (entries.data?.length ?? 0) + 1 }
        }
        onSubmit={submitEntry}
        onClose={() => setEntryDialog(null)}
      >
        <Form.Item name="label" label="字典标签" rules={[{ required: true, whitespace: true, message: '请输入字典标签' }]}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="value" label="字典值" rules={[{ required: true, whitespace: true, message: '请输入字典值' }]}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="type" label="标签类型">
          <Select options={TAG_TYPES} />
        </Form.Item>
        <Form.Item name="dictSort" label="排序" rules={[{ required: true, message: '请输入排序' }]}>
          <InputNumber min={-999999} max={999999} />
        </Form.Item>
      </FormModal>
    </div>
  );
}
