import { Alert, Button, Drawer, Empty, Form, Input, Skeleton, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePermission } from '../../../access/access';
import { contractSource } from '../../../app/rest-data';
import { type DataViewRow, dataViews } from '../../../contract/data-views';
import type { CallAnswer } from '../../../contract/define';
import type { RecordRow } from '../../../engine';
import { listTableProps, UNPAGED, useCrud, useListQuery } from '../../../engine';
import { notify } from '../../../notify/notifier';
import { api, RequestError } from '../../../request';
import { editDeleteLinks, NameSearchToolbar } from '../admin-list';

/**
 * 数据视图 (/dev-tools/dataView): the SQL data views big-screen charts read. List, search by name,
 * add, edit and delete; the editor runs unsaved SQL (first 100 rows, with the time taken) and shows a
 * refusal (writing SQL, time limit, syntax error) right under the editor. A data view a screen still
 * reads cannot be deleted; the server names the screens.
 */

const SqlEditor = lazy(() => import('./sql-editor'));

type RunAnswer = CallAnswer<typeof dataViews.calls.run>;

type RunState = { status: 'idle' } | { status: 'running' } | { status: 'done'; answer: RunAnswer } | { status: 'refused'; message: string };

const SOURCE = contractSource(dataViews, 'list', 'remove');
const BY_ID = { defaultSort: { field: 'id', order: 'desc' } } as const;

function readDraft(key: string): { name: string; sql: string } | undefined {
  try {
    const v = JSON.parse(sessionStorage.getItem(key) ?? 'null') as unknown;
    if (
      v &&
      typeof v === 'object' &&
      typeof (v as { name?: unknown }).name === 'string' &&
      typeof (v as { sql?: unknown }).sql === 'string'
    )
      return v as { name: string; sql: string };
  } catch {
    // A broken draft is no draft.
  }
  return undefined;
}

const messageOf = (e: unknown) => (e instanceof RequestError || e instanceof Error ? e.message : '接口请求失败');

export function DataViewPage() {
  const can = usePermission();
  const list = useListQuery<DataViewRow>(SOURCE, BY_ID);
  const crud = useCrud<DataViewRow>(SOURCE, list);
  const nameState = useState('');

  const columns: ColumnsType<RecordRow<DataViewRow>> = [
    { title: '编号', dataIndex: 'id', width: 80 },
    { title: '名称', dataIndex: 'name', width: 200 },
    {
      title: 'SQL',
      dataIndex: 'sql',
      ellipsis: true,
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: '更新时间', dataIndex: 'updateTime', width: 180 },
    {
      title: '操作',
      key: 'actions',
      width: 150,
      render: (_, row) => <Space size={4}>{editDeleteLinks(can, 'dataView', row, crud)}</Space>,
    },
  ];

  return (
    <div className="app-container" data-testid="data-view-page">
      <NameSearchToolbar
        prefix="dataView"
        width={240}
        name={nameState}
        onSearch={(v) => list.search({ name: v }, null)}
        list={list}
        crud={crud}
      />
      <Table<RecordRow<DataViewRow>>
        {...listTableProps(list, { selectable: can('dataView:del'), sizes: true })}
        size="middle"
        columns={columns}
        locale={{ emptyText: <Empty description="暂无数据视图" /> }}
      />
      {crud.dialog && (
        <DataViewEditor
          row={crud.dialog.row as DataViewRow | undefined}
          canRun={can(['dataView:add', 'dataView:edit'])}
          onClose={crud.close}
          onSaved={crud.saved}
        />
      )}
    </div>
  );
}

function DataViewEditor({
  row,
  canRun,
  onClose,
  onSaved,
}: {
  row?: DataViewRow;
  canRun: boolean;
  onClose(): void;
  onSaved(mode: 'add' | 'edit'): void;
}) {
  const draftKey = `wastegen:data-view-draft:${row?.id ?? 'new'}`;
  const [draft] = useState(() => readDraft(draftKey));
  const restored = draft !== undefined && (draft.name !== (row?.name ?? '') || draft.sql !== (row?.sql ?? ''));
  const [name, setName] = useState(restored ? draft.name : (row?.name ?? ''));
  const [text, setText] = useState(restored ? draft.sql : (row?.sql ?? ''));
  const [showRestored, setShowRestored] = useState(restored);
  const [run, setRun] = useState<RunState>({ status: 'idle' });
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const textRef = useRef(text);
  textRef.current = text;
  const dirty = name !== (row?.name ?? '') || text !== (row?.sql ?? '');

  // What is typed survives a reload or a closed tab until it is saved or given up.
  useEffect(() => {
    try {
      if (dirty) sessionStorage.setItem(draftKey, JSON.stringify({ name, sql: text }));
      else sessionStorage.removeItem(draftKey);
    } catch {
      // Without session storage the confirm on close still guards the text.
    }
  }, [draftKey, dirty, name, text]);
  const dropDraft = () => {
    try {
      sessionStorage.removeItem(draftKey);
    } catch {
      // Nothing was kept.
    }
  };

  const runNow = useCallback(async () => {
    const current = textRef.current;
    if (!current.trim()) {
      setRun({ status: 'refused', message: 'SQL 不能为空' });
      return;
    }
    setRun({ status: 'running' });
    try {
      const answer = await api(dataViews.calls.run, { body: { sql: current } }, { silent: true, timeout: 60_000 });
      setRun({ status: 'done', answer });
    } catch (e) {
      setRun({ status: 'refused', message: messageOf(e) });
    }
  }, []);

  const save = async () => {
    if (!name.trim()) {
      setNameError('请输入名称');
      return;
    }
    setSaving(true);
    setSaveError(null);
    try {
      if (row) await api(dataViews.calls.update, { body: { id: row.id, name: name.trim(), sql: text } }, { silent: true });
      else await api(dataViews.calls.add, { body: { name: name.trim(), sql: text } }, { silent: true });
      dropDraft();
      onSaved(row ? 'edit' : 'add');
    } catch (e) {
      setSaveError(messageOf(e));
    } finally {
      setSaving(false);
    }
  };

  const close = async () => {
    if (dirty && !(await notify.confirm({ title: '提示', content: '修改尚未保存，确定关闭吗？' }))) return;
    dropDraft();
    onClose();
  };

  return (
    <Drawer
      open
      width={960}
      title={row ? `编辑数据视图：${row.name}` : '新增数据视图'}
      maskClosable={false}
      onClose={close}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={close}>取消</Button>
          <Button type="primary" loading={saving} onClick={save}>
            保存
          </Button>
        </Space>
      }
    >
      {showRestored && (
        <Alert
          type="info"
          showIcon
          closable
          onClose={() => setShowRestored(false)}
          style={{ marginBottom: 12 }}
          message="已恢复上次未保存的内容"
          action={
            <Button
              size="small"
              onClick={() => {
                setName(row?.name ?? '');
                setText(row?.sql ?? '');
                setShowRestored(false);
              }}
            >
              放弃
            </Button>
          }
        />
      )}
      <Form layout="vertical" onSubmitCapture={(e) => e.preventDefault()}>
        <Form.Item label="名称" required validateStatus={nameError ? 'error' : undefined} help={nameError}>
          <Input
            value={name}
            maxLength={255}
            aria-label="名称"
            onChange={(e) => {
              setName(e.target.value);
              setNameError(null);
            }}
          />
        </Form.Item>
        <Form.Item
          label={
            <Space>
              SQL
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                只能是一条查询语句；Ctrl+Enter 运行
              </Typography.Text>
            </Space>
          }
          required
        >
          <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
            <SqlEditor value={text} onChange={setText} onRun={runNow} />
          </Suspense>
        </Form.Item>
      </Form>
      {saveError && (
        <Alert
          type="error"
          showIcon
          message="保存失败"
          description={saveError}
          style={{ marginBottom: 12 }}
          data-testid="data-view-save-error"
        />
      )}
      <Space style={{ marginBottom: 12 }}>
        {canRun && (
          <Button type="primary" ghost loading={run.status === 'running'} onClick={runNow}>
            运行
          </Button>
        )}
      </Space>
      <RunResult run={run} />
    </Drawer>
  );
}

function RunResult({ run }: { run: RunState }) {
  const columns = useMemo(
    () =>
      run.status === 'done'
        ? [
            { title: '#', key: '__index', width: 56, render: (_: unknown, __: unknown, i: number) => i + 1 },
            ...run.answer.columns.map((c) => ({
              title: c,
              dataIndex: c,
              key: c,
              ellipsis: true,
              render: (v: unknown) =>
                v === null || v === undefined ? <Typography.Text type="secondary">NULL</Typography.Text> : String(v),
            })),
          ]
        : [],
    [run],
  );
  if (run.status === 'idle') return null;
  if (run.status === 'refused')
    return <Alert type="error" showIcon message="运行失败" description={run.message} role="alert" data-testid="data-view-run-error" />;
  if (run.status === 'running') return <Skeleton active />;
  const { answer } = run;
  return (
    <div data-testid="data-view-run-result">
      <Space style={{ marginBottom: 8 }} wrap>
        <Tag color="blue" data-testid="data-view-elapsed">
          耗时 {answer.elapsedMs} ms
        </Tag>
        <Typography.Text>
          {answer.columns.length} 列，{answer.list.length} 行{answer.truncated ? '（结果超过 100 行，只显示前 100 行）' : ''}
        </Typography.Text>
      </Space>
      <Table
        size="small"
        rowKey={(_, i) => String(i)}
        columns={columns}
        dataSource={answer.list}
        {...UNPAGED}
        scroll={{ x: 'max-content', y: 360 }}
        locale={{ emptyText: <Empty description="查询没有返回行" /> }}
      />
    </div>
  );
}
