import { Button, Card, Result, Space, Spin, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { normalizeDefinition } from '../../model/normalize';
import { buildSchema } from '../../model/schema';
import type { FormPageModel, ListPageModel } from '../../model/types';
import { NOTICE_SECONDS, notify } from '../../notify/notifier';
import { http } from '../../request';
import type { EngineFormHandle, FormMode } from '../contracts';
import { OptionsProvider } from '../options';
import { EngineForm } from './engine-form';
import { blockingProblems, queryValues } from './page-query';

/**
 * Screen type 3 (`/{x}/vBuild/temp/{screenId}`): one view's form as a full page. The view is
 * fetched and normalised at run time (it may be newer than the build). Route query values are read
 * as numbers: the view's key (`?id=5`) opens that record for editing, every value goes into the
 * payload. After 提交成功 the page closes (back to where the user came from).
 */

export const SUBMIT_SUCCESS = '提交成功';
/** lowcode-engine.md §4: a detail that fails to load closes the form after 1 s. */
export const CLOSE_AFTER_FAILED_DETAIL_MS = 1000;

type Definition =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'invalid'; lines: string[] }
  | { status: 'ready'; page: ListPageModel };

function useViewDefinition(viewId: number, attempt: number): Definition {
  const [state, setState] = useState<Definition>({ status: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt asks for the definition again
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    http
      .get<unknown>('/api/generation/detail', { id: viewId }, { silent: true, signal: controller.signal })
      .then((json) => {
        const r = normalizeDefinition({ kind: 'view', file: `view ${viewId}`, json });
        const lines = blockingProblems(r.problems);
        if (lines.length) setState({ status: 'invalid', lines });
        else if (r.page?.kind === 'list') setState({ status: 'ready', page: r.page });
        else setState({ status: 'failed', message: r.skipped ? '该视图尚未设计' : '该视图不是表单视图' });
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', message: e instanceof Error ? e.message : String(e) });
      });
    return () => controller.abort();
  }, [viewId, attempt]);
  return state;
}

export function FormPage({ model }: { model: FormPageModel }) {
  const [attempt, setAttempt] = useState(0);
  const definition = useViewDefinition(model.formView, attempt);
  if (definition.status === 'loading')
    return (
      <Card title={model.title}>
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      </Card>
    );
  if (definition.status === 'failed')
    return (
      <Result
        status="warning"
        title="表单加载失败"
        subTitle={definition.message}
        extra={
          <Button type="primary" onClick={() => setAttempt((n) => n + 1)}>
            重试
          </Button>
        }
      />
    );
  if (definition.status === 'invalid')
    return (
      <Result status="error" title="视图定义有误，无法显示" subTitle={`视图 ${model.formView}`}>
        <ul data-problems style={{ margin: 0, paddingLeft: 20 }}>
          {definition.lines.map((line) => (
            <li key={line}>
              <Typography.Text code>{line}</Typography.Text>
            </li>
          ))}
        </ul>
      </Result>
    );
  return <FullPageForm model={model} page={definition.page} />;
}

function FullPageForm({ model, page }: { model: FormPageModel; page: ListPageModel }) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const form = page.form;
  const schema = useMemo(() => buildSchema(form), [form]);
  const query = useMemo(() => queryValues(search), [search]);
  const key = form.dialog.key;
  const recordId = query[key];
  const mode: FormMode = recordId !== undefined ? 'edit' : 'add';
  const [initial, setInitial] = useState<{ loading: boolean; values?: Record<string, unknown> }>({ loading: true });
  const [submitting, setSubmitting] = useState(false);
  const ref = useRef<EngineFormHandle>(null);

  const close = useCallback(() => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/', { replace: true });
  }, [navigate]);
  const closeRef = useRef(close);
  closeRef.current = close;

  useEffect(() => {
    const controller = new AbortController();
    let closing: ReturnType<typeof setTimeout> | undefined;
    setInitial({ loading: true });
    const load =
      mode === 'edit'
        ? http.get<Record<string, unknown>>(page.api.detail, { generalId: page.viewId, [key]: recordId }, { signal: controller.signal })
        : form.dialog.initGroovy
          ? http.post<{ data?: Record<string, unknown> }>(page.api.preAdd, {}, { signal: controller.signal }).then((r) => r?.data ?? {})
          : Promise.resolve(undefined);
    load
      .then((values) => setInitial({ loading: false, values: values ?? undefined }))
      .catch(() => {
        if (controller.signal.aborted) return;
        if (mode === 'edit') closing = setTimeout(() => closeRef.current(), CLOSE_AFTER_FAILED_DETAIL_MS);
        else setInitial({ loading: false });
      });
    return () => {
      controller.abort();
      clearTimeout(closing);
    };
  }, [mode, page, key, recordId, form.dialog.initGroovy]);

  const onSubmit = useCallback(
    async (payload: Record<string, unknown>) => {
      const url = page.api.submit ?? (mode === 'edit' ? page.api.edit : page.api.add);
      await http.post(url, { generalId: page.viewId, ...payload });
      notify.success(SUBMIT_SUCCESS, NOTICE_SECONDS);
      close();
    },
    [page, mode, close],
  );

  const submit = async () => {
    setSubmitting(true);
    try {
      await ref.current?.submit();
    } finally {
      setSubmitting(false);
    }
  };

  const dicts = useMemo(() => form.fields.map((f) => f.dict), [form]);

  return (
    <Card title={model.title} data-page-kind="form" data-view-id={page.viewId}>
      {initial.loading ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : (
        <OptionsProvider dicts={dicts}>
          <EngineForm
            ref={ref}
            form={form}
            schema={schema}
            mode={mode}
            initialValues={initial.values}
            onSubmit={onSubmit}
            fixedValues={query}
          />
          <Space style={{ display: 'flex', justifyContent: 'center', marginTop: 16 }}>
            <Button type="primary" loading={submitting} onClick={submit}>
              提交
            </Button>
            <Button onClick={() => ref.current?.reset()} disabled={submitting}>
              重置
            </Button>
            <Button onClick={close} disabled={submitting}>
              取消
            </Button>
          </Space>
        </OptionsProvider>
      )}
    </Card>
  );
}
