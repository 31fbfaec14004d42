import { Empty, Form, Input, InputNumber, Select, Table, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { listTableProps, pickableTableProps, useListCrud } from '../../../engine';
import { type DictEntry, type DictRow, dicts, SOURCES } from './api';
import { ActionLinks, SYSTEM_TABLE, sysColumns } from './columns';
import { CrudFormModal } from './form-modal';
import { confirmDeleteText, SYSTEM_CRUD } from './rules';
import { LoadError, SearchToolbar } from './toolbar';
import './system.css';

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

/** An entry's tag types, named as stored; none is 默认. */
const TAG_TYPES = [{ value: '', label: '默认' }, ...['success', 'info', 'warning', 'danger'].map((t) => ({ value: t, label: t }))];
const tagColor = (t: string) => ({ success: 'success', info: 'processing', warning: 'warning', danger: 'error' })[t] ?? 'default';
/** A dictionary's entries are read whole. */
const ALL_ENTRIES = 9999;

/** 字典管理: the dictionaries on the left, the entries of the selected one on the right. */
export function DictAdminPage() {
  const [current, setCurrent] = useState<DictRow | null>(null);
  const [dictForm] = Form.useForm<DictForm>();
  const [entryForm] = Form.useForm<EntryForm>();

  const { list, crud } = useListCrud<DictRow>(SOURCES.dicts, undefined, SYSTEM_CRUD);
  const entryFilter = useMemo(() => ({ dictName: current?.name }), [current?.name]);
  const entries = useListCrud<DictEntry>(SOURCES.entries, { fixed: entryFilter, size: ALL_ENTRIES }, SYSTEM_CRUD);
  const entryRows = entries.list.rows;
  const dictDialog = crud.dialog?.row;
  const entryDialog = entries.crud.dialog?.row;

  const saveDict = async (v: DictForm, mode: 'add' | 'edit') => {
    const body = { id: v.id, name: v.name.trim(), description: v.description?.trim() || null };
    await (mode === 'edit' ? dicts.edit(body) : dicts.add(body));
    // A renamed dictionary keeps its entries selected under its new name.
    if (mode === 'edit' && current && current.id === v.id)
      setCurrent({ ...current, name: body.name, description: body.description ?? null });
  };

  const saveEntry = async (v: EntryForm, mode: 'add' | 'edit') => {
    if (!current) return;
    const body = { ...v, label: v.label.trim(), value: v.value.trim(), dict: { id: current.id } };
    await (mode === 'edit' ? dicts.editEntry(body) : dicts.addEntry(body));
  };

  const removeDict = async (r: DictRow) => {
    if ((await crud.remove([r], confirmDeleteText(`字典“${r.name}”及其全部字典详情`))) && current?.id === r.id) setCurrent(null);
  };

  return (
    <div className="sys-page" data-page="system-dict">
      <div className="sys-split sys-split-half">
        <section className="sys-page" aria-label="字典列表">
          <SearchToolbar
            placeholder="输入名称或描述搜索"
            label="搜索字典"
            width={200}
            onSearch={(blurry) => list.search({ blurry })}
            add={{ permission: 'dict:add', onClick: () => crud.open({ mode: 'add' }) }}
          />
          <LoadError error={list.error} retry={list.reload} />
          <Table<DictRow>
            {...pickableTableProps(list, current, setCurrent)}
            {...SYSTEM_TABLE}
            columns={[
              { title: '名称', dataIndex: 'name' },
              { title: '描述', dataIndex: 'description', ellipsis: true },
              sysColumns.actions({ width: 120, prefix: 'dict', crud, stop: true }, (r, { edit, del }) => [
                edit,
                del(() => void removeDict(r)),
              ]),
            ]}
          />
        </section>
        <section className="sys-page" aria-label="字典详情">
          <div className="sys-toolbar">
            <strong>{current ? `字典详情：${current.name}${current.description ? `（${current.description}）` : ''}` : '字典详情'}</strong>
            <span className="sys-grow" />
            {current && (
              <ActionLinks links={[{ label: '新增详情', permission: 'dict:add', onClick: () => entries.crud.open({ mode: 'add' }) }]} />
            )}
          </div>
          {!current ? (
            <Empty description="点击左侧字典查看详情" />
          ) : (
            <>
              <LoadError error={entries.list.error} retry={entries.list.reload} />
              <Table<DictEntry>
                {...listTableProps(entries.list, { whole: true })}
                {...SYSTEM_TABLE}
                columns={[
                  { title: '字典标签', dataIndex: 'label', render: (v: string, r) => <Tag color={tagColor(r.type)}>{v}</Tag> },
                  { title: '字典值', dataIndex: 'value' },
                  { title: '排序', dataIndex: 'dictSort', width: 70, align: 'center' },
                  sysColumns.actions({ width: 120, prefix: 'dict', crud: entries.crud }, (r, { edit, del }) => [
                    edit,
                    del(() => void entries.crud.remove([r], confirmDeleteText(`字典详情“${r.label}”`))),
                  ]),
                ]}
              />
            </>
          )}
        </section>
      </div>
      <CrudFormModal<DictForm>
        crud={crud}
        what="字典"
        form={dictForm}
        initialValues={dictDialog ? { id: dictDialog.id, name: dictDialog.name, description: dictDialog.description ?? '' } : {}}
        save={saveDict}
      >
        <Form.Item name="name" label="字典名称" rules={[{ required: true, whitespace: true, message: '请输入字典名称' }]}>
          <Input maxLength={100} placeholder="字母开头，如 wasteType" />
        </Form.Item>
        <Form.Item name="description" label="描述">
          <Input maxLength={255} />
        </Form.Item>
      </CrudFormModal>
      <CrudFormModal<EntryForm>
        crud={entries.crud}
        what="字典详情"
        form={entryForm}
        initialValues={
          entryDialog
            ? {
                id: entryDialog.id,
                label: entryDialog.label,
                value: entryDialog.value,
                type: entryDialog.type,
                dictSort: entryDialog.dictSort,
              }
            : { type: '', dictSort: entryRows.length + 1 }
        }
        save={saveEntry}
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
      </CrudFormModal>
    </div>
  );
}
