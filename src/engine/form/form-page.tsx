import { Button, Card, Result, Space, Spin, Typography } from 'antd';
import { useCallback, useMemo, useRef } from 'react';
import { general } from '../../contract/general';
import type { FormPageModel, ListPageModel } from '../../model';
import { buildSchema } from '../../model';
import type { EngineFormHandle, FormMode } from '../contracts';
import { useDefinition } from '../hooks/use-definition';
import { useRecord } from '../hooks/use-record';
import { OptionsProvider } from '../options';
import { useEngineServices, usePageNavigation } from '../services';
import { EngineForm } from './engine-form';
import { queryValues } from './page-query';
import { RecordLoadNotice, useFormSubmit, WritableNotice, writableLabels } from './record-form';

/**
 * Screen type 3 (`/{x}/vBuild/temp/{screenId}`): one view's form as a full page. The view is
 * fetched and normalised at run time (it may be newer than the build). Route query values are read
 * as numbers: the view's key (`?id=5`) opens that record for editing, every value goes into the
 * payload. After 操作成功 (a form save) the page closes its tab.
 */

export const SUBMIT_SUCCESS = '操作成功';

/** The add form's starting values for the page's query (dialogOption.initGroovy). */
export const DYNAMIC_QUERY_URL = general.calls.dynamicQuery.path;

/** `{ status, data }` → data, when it is a record. */
function dataOf(answer: unknown): Record<string, unknown> | undefined {
  const data = answer && typeof answer === 'object' ? (answer as { data?: unknown }).data : undefined;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}

export function FormPage({ model }: { model: FormPageModel }) {
  const definition = useDefinition('view', model.formView, { runtimeOnly: true });
  if (definition.status === 'loading')
    return (
      <Card title={model.title}>
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      </Card>
    );
  if (definition.status === 'failed')
    return (
      <Result
        status={definition.error.status === 404 ? '404' : 'warning'}
        title="表单加载失败"
        subTitle={definition.error.message}
        extra={
          <Button type="primary" onClick={definition.reload}>
            重试
          </Button>
        }
      />
    );
  const r = definition.resolution;
  if (r.kind === 'invalid')
    return (
      <Result status="error" title="视图定义有误，无法显示" subTitle={`视图 ${model.formView}`}>
        <ul data-problems style={{ margin: 0, paddingLeft: 20 }}>
          {r.problems.map((p) => (
            <li key={`${p.pointer}: ${p.message}`}>
              <Typography.Text code>{`${p.pointer}: ${p.message}`}</Typography.Text>
            </li>
          ))}
        </ul>
      </Result>
    );
  if (r.kind !== 'runtime' || r.page.kind !== 'list')
    return (
      <Result
        status="warning"
        title="表单加载失败"
        subTitle={r.kind === 'undesigned' ? '该视图尚未设计' : '该视图不是表单视图'}
        extra={
          <Button type="primary" onClick={definition.reload}>
            重试
          </Button>
        }
      />
    );
  return <FullPageForm key={r.hash} model={model} page={r.page} />;
}

function FullPageForm({ model, page }: { model: FormPageModel; page: ListPageModel }) {
  const { notify, data } = useEngineServices();
  const { search, closePage } = usePageNavigation();
  const form = page.form;
  const schema = useMemo(() => buildSchema(form), [form]);
  const query = useMemo(() => queryValues(search), [search]);
  const key = form.dialog.key;
  const recordId = query[key];
  const mode: FormMode = recordId !== undefined ? 'edit' : 'add';
  const ref = useRef<EngineFormHandle>(null);
  const { submitting, submit } = useFormSubmit(ref);
  // A page opened with a query starts from what the server makes of it: defaults and the query's fields.
  const initialValues = useCallback(
    async (signal: AbortSignal) =>
      dataOf(
        await data.custom({ url: DYNAMIC_QUERY_URL, method: 'get', query: { ...query, generalId: page.viewId }, signal, silent: true }),
      ),
    [data, query, page.viewId],
  );
  const record = useRecord({ model: page, mode, id: recordId, onClose: closePage, closeOnSubmit: true, initialValues });

  const onSubmit = useCallback(
    async (payload: Record<string, unknown>) => {
      await record.submit({ generalId: page.viewId, ...payload });
      notify.success(SUBMIT_SUCCESS);
    },
    [record, page.viewId, notify],
  );

  const dicts = useMemo(() => form.fields.map((f) => f.dict), [form]);
  const load = record.load;
  // A record the user may change only some fields of says which; one it may change none of is looked at.
  const labels = writableLabels(form, mode === 'edit' && load.status === 'ready' ? load.writable : undefined);
  const shown: FormMode = labels?.length === 0 ? 'look' : mode;

  return (
    <Card title={model.title} data-page-kind="form" data-view-id={page.viewId}>
      <RecordLoadNotice load={load} closing="页面" />
      {load.status === 'ready' && (
        <OptionsProvider dicts={dicts}>
          <WritableNotice labels={labels} />
          <EngineForm
            ref={ref}
            form={form}
            schema={schema}
            mode={shown}
            initialValues={load.values}
            onSubmit={onSubmit}
            fixedValues={query}
            writable={shown === 'edit' ? load.writable : undefined}
          />
          <Space style={{ display: 'flex', justifyContent: 'center', marginTop: 16 }}>
            {shown !== 'look' && (
              <>
                <Button type="primary" loading={submitting} onClick={submit}>
                  提交
                </Button>
                <Button onClick={() => ref.current?.reset()} disabled={submitting}>
                  重置
                </Button>
              </>
            )}
            <Button onClick={closePage} disabled={submitting}>
              取消
            </Button>
          </Space>
        </OptionsProvider>
      )}
    </Card>
  );
}
