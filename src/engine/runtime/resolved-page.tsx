import { Alert, Button, Empty, Modal, Result, Spin, Tabs, Typography } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import type { ContainerPageModel, Problem } from '../../model';
import { buildSchema } from '../../model';
import { FormPage } from '../form/form-page';
import { type DefinitionState, resolveMarked, useDefinition, useDefinitions } from '../hooks/use-definition';
import { ListPage, ListSearchNotInAddress } from '../list/list-page';
import { RecordDialog } from '../list/record-dialog';
import { OptionsProvider } from '../options';
import { type GeneratedRoute, usePageChunk } from '../routes';
import { BigScreenPage } from '../screen/big-screen-page';
import type { HttpError } from '../services';
import { useEngineServices } from '../services';
import { type DefinitionKind, type Resolution, titleOf } from './resolve';

/**
 * The runtime renderer: a definition fetched by id, drawn by its generated page when the build has
 * one with the same hash, else from the page model normalised now. What cannot be drawn says why:
 * an unknown id, a failed fetch (with 重试), a definition that fails validation (its problems with
 * their pointers), a page not designed yet. Never a white screen.
 */

const spinner = <Spin style={{ display: 'block', margin: '64px auto' }} />;

const NOUN: Record<DefinitionKind, string> = { view: '视图', screen: '页面' };

/** A definition that fails validation: every problem as `pointer: message`. */
export function DefinitionProblems({ title, problems }: { title?: string; problems: readonly Problem[] }) {
  return (
    <Alert
      type="error"
      showIcon
      className="engine-definition-problems"
      title={title ?? '视图定义有误，无法显示'}
      description={
        <ul style={{ margin: 0, paddingLeft: 20 }}>
          {problems.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: problems have no identity of their own
            <li key={i}>
              <Typography.Text code>{p.pointer || '/'}</Typography.Text>: {p.message}
            </li>
          ))}
        </ul>
      }
    />
  );
}

/** A definition that could not be fetched: the server's message and a retry. */
export function LoadFailed({ title, message, onRetry }: { title: string; message?: string; onRetry: () => void }) {
  return (
    <Result
      status="error"
      title={title}
      subTitle={message}
      extra={
        <Button type="primary" onClick={onRetry}>
          重试
        </Button>
      }
    />
  );
}

/** Why a definition is not there: the server knows no such id (404), or the fetch failed. */
export function DefinitionFailed({
  kind,
  id,
  error,
  onRetry,
}: {
  kind: DefinitionKind;
  id: number;
  error: HttpError;
  onRetry: () => void;
}) {
  if (error.status === 404)
    return (
      <Result
        status="404"
        title={`${NOUN[kind]} ${id} 不存在`}
        subTitle={`没有编号为 ${id} 的${NOUN[kind]}，请检查地址是否正确。`}
        data-missing-definition={kind}
      />
    );
  return <LoadFailed title={`${NOUN[kind]} ${id} 加载失败`} message={error.message} onRetry={onRetry} />;
}

/** A generated page, drawn once its chunk has arrived (usually already: it loads beside the definition). */
export function GeneratedPage({ route }: { route: GeneratedRoute }) {
  const chunk = usePageChunk(route);
  if (chunk.status === 'loading') return spinner;
  if (chunk.status === 'failed') return <LoadFailed title={`页面 ${route.title} 加载失败`} message={chunk.message} onRetry={chunk.retry} />;
  return <chunk.Page />;
}

/** A list view at run time, its form schema built from its model. */
function RuntimeList({
  resolution,
  fixedQuery,
}: {
  resolution: Extract<Resolution, { kind: 'runtime' }>;
  fixedQuery?: Record<string, unknown>;
}) {
  const page = resolution.page;
  const schema = useMemo(() => (page.kind === 'list' ? buildSchema(page.form) : undefined), [page]);
  if (page.kind !== 'list' || !schema)
    return <DefinitionProblems problems={[{ code: 'E_TYPE', file: 'view', pointer: '', message: '不是列表视图' }]} />;
  return <ListPage key={resolution.hash} model={page} schema={schema} fixedQuery={fixedQuery} />;
}

/** A resolved view: the generated page or the runtime ListPage, or why neither. */
export function ViewFromResolution({
  resolution,
  fixedQuery,
}: {
  resolution: Resolution;
  /** Filters of the caller (a dialog's foreign key); only the runtime ListPage takes them. */
  fixedQuery?: Record<string, unknown>;
}): ReactNode {
  switch (resolution.kind) {
    case 'generated':
      return <GeneratedPage route={resolution.route} />;
    case 'runtime':
      return <RuntimeList resolution={resolution} fixedQuery={fixedQuery} />;
    case 'invalid':
      return <DefinitionProblems problems={resolution.problems} />;
    case 'undesigned':
      return <Result status="info" title="该视图尚未设计" />;
  }
}

/** A view's definition as the server answered it, drawn (see resolveDefinition). A caller's filters force run time. */
export function ViewFromDefinition({
  raw,
  runtimeOnly,
  fixedQuery,
}: {
  raw: unknown;
  runtimeOnly?: boolean;
  fixedQuery?: Record<string, unknown>;
}) {
  const { routes } = useEngineServices();
  const forced = !!runtimeOnly || fixedQuery !== undefined;
  const resolution = useMemo(() => resolveMarked('view', raw, { routes, runtimeOnly: forced }), [raw, routes, forced]);
  return <ViewFromResolution resolution={resolution} fixedQuery={fixedQuery} />;
}

/** What a definition that could not be read is called where its name would show: what happened, never a bare id. */
export function failedTitle(kind: DefinitionKind, status: number): string {
  if (status === 401 || status === 403) return '无权访问';
  if (status === 404) return `${NOUN[kind]}不存在`;
  return `${NOUN[kind]}加载失败`;
}

/**
 * Tells the caller the definition's name once it is known (the tag bar and breadcrumb show it), or that
 * it could not be read (refused, unknown, failed), so the caller names the page otherwise.
 */
function useReportTitle(
  state: DefinitionState,
  onTitle: ((title: string) => void) | undefined,
  onFailed: ((error: HttpError) => void) | undefined,
) {
  const title = state.status === 'ready' ? titleOf(state.resolution, state.raw) : undefined;
  const failed = state.status === 'failed' ? state.error : undefined;
  useEffect(() => {
    if (title) onTitle?.(title);
  }, [title, onTitle]);
  useEffect(() => {
    if (failed) onFailed?.(failed);
  }, [failed, onFailed]);
}

/** What a fetched view definition draws: a spinner, why it is not there, or the view. */
export function ViewFromState({
  id,
  state,
  reload,
  fixedQuery,
}: {
  id: number;
  state: DefinitionState;
  reload: () => void;
  fixedQuery?: Record<string, unknown>;
}) {
  if (state.status === 'loading') return spinner;
  if (state.status === 'failed') return <DefinitionFailed kind="view" id={id} error={state.error} onRetry={reload} />;
  return <ViewFromResolution resolution={state.resolution} fixedQuery={fixedQuery} />;
}

const noop = () => {};

/**
 * One record of a view, read-only, in that view's look dialog: the record a relation button links. It is
 * read like any record the user looks at (the view's detail, within the user's scope): a record out of
 * scope is answered as missing, and the dialog says so and closes.
 */
export function LinkedRecordDialog({ viewId, id, title, onClose }: { viewId: number; id: string; title: string; onClose: () => void }) {
  const state = useDefinition('view', viewId, { runtimeOnly: true });
  const page = state.status === 'ready' && state.resolution.kind === 'runtime' ? state.resolution.page : undefined;
  const model = page?.kind === 'list' ? page : undefined;
  const schema = useMemo(() => (model ? buildSchema(model.form) : undefined), [model]);
  const dicts = useMemo(() => model?.form.fields.map((f) => f.dict) ?? [], [model]);
  if (model && schema)
    return (
      <OptionsProvider dicts={dicts}>
        <RecordDialog
          model={model}
          schema={schema}
          title={title}
          state={{ mode: 'look', row: { [model.form.dialog.key]: id } }}
          onClose={onClose}
          onSubmitting={noop}
          onSaved={noop}
          onRefused={noop}
        />
      </OptionsProvider>
    );
  return (
    <Modal open title={title} footer={null} onCancel={onClose} destroyOnHidden>
      {state.status === 'loading' ? (
        spinner
      ) : state.status === 'failed' ? (
        <DefinitionFailed kind="view" id={viewId} error={state.error} onRetry={state.reload} />
      ) : state.resolution.kind === 'invalid' ? (
        <DefinitionProblems problems={state.resolution.problems} />
      ) : (
        <Result status="info" title="该视图尚未设计" />
      )}
    </Modal>
  );
}

/** A view by id (`/dev-tools/temp/page/{name}/{viewId}`, previews, a button's dialog). */
export function ResolvedView({
  viewId,
  runtimeOnly,
  fixedQuery,
  onTitle,
  onFailed,
}: {
  viewId: number;
  runtimeOnly?: boolean;
  fixedQuery?: Record<string, unknown>;
  onTitle?: (title: string) => void;
  onFailed?: (error: HttpError) => void;
}) {
  // A caller's filters force run time: no generated chunk to fetch then.
  const state = useDefinition('view', viewId, { runtimeOnly: runtimeOnly || fixedQuery !== undefined });
  useReportTitle(state, onTitle, onFailed);
  return <ViewFromState id={viewId} state={state} reload={state.reload} fixedQuery={fixedQuery} />;
}

/** A screen by id (`/{x}/vBuild/temp/{screenId}`): a container, a full-page form or a big screen. */
export function ResolvedScreen({
  screenId,
  onTitle,
  onFailed,
}: {
  screenId: number;
  onTitle?: (title: string) => void;
  onFailed?: (error: HttpError) => void;
}) {
  const state = useDefinition('screen', screenId);
  useReportTitle(state, onTitle, onFailed);
  if (state.status === 'loading') return spinner;
  if (state.status === 'failed') return <DefinitionFailed kind="screen" id={screenId} error={state.error} onRetry={state.reload} />;
  const r = state.resolution;
  switch (r.kind) {
    case 'generated':
      return <GeneratedPage route={r.route} />;
    case 'runtime':
      if (r.page.kind === 'container') return <ContainerPage key={r.hash} model={r.page} />;
      if (r.page.kind === 'form') return <FormPage key={r.hash} model={r.page} />;
      if (r.page.kind === 'bigScreen') return <BigScreenPage key={r.hash} model={r.page} />;
      return <Result status="warning" title="无法显示该页面" />;
    case 'invalid':
      return <DefinitionProblems title="页面定义有误，无法显示" problems={r.problems} />;
    case 'undesigned':
      return <Result status="info" title="该页面尚未设计" />;
  }
}

/** A container's tab: its view's name, what happened to a view that could not be read, 视图 {id} while loading. */
function tabTitle(state: DefinitionState | undefined, id: number): string {
  if (state?.status === 'failed') return failedTitle('view', state.error.status);
  return (state?.status === 'ready' && titleOf(state.resolution, state.raw)) || `视图 ${id}`;
}

/**
 * Screen types 1 and 4: one list view, or the views as tabs. A container knows view ids only: every
 * view's definition is fetched at once (the tabs show their names), and each is drawn by its
 * generated page when the hashes agree, else at run time.
 */
export function ContainerPage({ model }: { model: ContainerPageModel }) {
  const { states, reload } = useDefinitions('view', model.views);
  const [active, setActive] = useState(() => String(model.views[0] ?? ''));
  if (!model.views.length) return <Empty description="该页面没有配置视图" />;
  const pane = (id: number) => <ViewFromState id={id} state={states.get(id) ?? { status: 'loading' }} reload={() => reload(id)} />;
  if (model.screenType === 1) {
    return (
      <div className="engine-container-page" data-screen-id={model.screenId}>
        {pane(model.views[0] as number)}
      </div>
    );
  }
  // The tabs share one address: each list keeps its search to itself.
  return (
    <div className="engine-container-page" data-screen-id={model.screenId}>
      <ListSearchNotInAddress>
        <Tabs
          activeKey={active}
          onChange={setActive}
          items={model.views.map((id) => ({ key: String(id), label: tabTitle(states.get(id), id), children: pane(id) }))}
        />
      </ListSearchNotInAddress>
    </div>
  );
}
