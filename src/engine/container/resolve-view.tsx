import { Alert, Button, Result, Spin, Typography } from 'antd';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import type { ZodType } from 'zod';
import { generatedRoutes } from '../../../generated/routes';
import { decodeDefinition, definitionHash } from '../../model/canonical';
import { normalizeDefinition } from '../../model/normalize';
import { isWarning, type Problem } from '../../model/problems';
import { buildSchema } from '../../model/schema';
import type { ListPageModel, PageModel } from '../../model/types';
import { http } from '../../request';
import { ListPage } from '../list/list-page';
import { PERF_MARKS, perfMark } from '../perf-marks';
import { type GeneratedRoute, preloadPage, routeOf, usePageChunk } from '../routes';

export const VIEW_DETAIL_URL = '/api/generation/detail';
export const SCREEN_DETAIL_URL = '/api/screen/detail';

export type DefinitionKind = 'view' | 'screen';

/**
 * Which renderer draws a definition fetched from the server (issue 5, "Runtime fallback"):
 * - `generated`: the build has a page for it and its hash equals the fetched definition's;
 * - `runtime`: no generated page, a different hash, or the caller asked for run time;
 * - `invalid`: the definition fails validation (its problems carry JSON pointers);
 * - `undesigned`: created but not designed yet (empty disTemplate).
 */
export type Resolution =
  | { kind: 'generated'; route: GeneratedRoute; hash: string }
  | { kind: 'runtime'; page: PageModel; hash: string; reason: 'no-generated-page' | 'hash-differs' | 'runtime-only' }
  | { kind: 'invalid'; problems: Problem[] }
  | { kind: 'undesigned'; reason: string };

export interface ResolveOptions {
  routes?: readonly GeneratedRoute[];
  /** Skip the generated page (previews, dialogs that pass filters of their own). */
  runtimeOnly?: boolean;
}

/** The definition as the server answered it (disTemplate and disMenu as JSON text or objects). */
export function resolveDefinition(kind: DefinitionKind, raw: unknown, options: ResolveOptions = {}): Resolution {
  const routes = options.routes ?? generatedRoutes;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      kind: 'invalid',
      problems: [{ code: 'E_TYPE', file: `${kind}`, pointer: '', message: 'the definition is not a JSON object' }],
    };
  }
  const decoded = decodeDefinition(raw as Record<string, unknown>);
  const id = Number(decoded.id);
  const hash = definitionHash(decoded);
  const route = routes.find((r) => r.kind === kind && r.id === id);
  if (route && route.hash === hash && !options.runtimeOnly) return { kind: 'generated', route, hash };
  const file = `${kind === 'view' ? '/api/generation/detail' : '/api/screen/detail'}?id=${Number.isFinite(id) ? id : ''}`;
  const result = normalizeDefinition({ kind, file, json: decoded });
  const errors = result.problems.filter((p) => !isWarning(p));
  if (errors.length) return { kind: 'invalid', problems: errors };
  if (result.skipped) return { kind: 'undesigned', reason: result.skipped.reason };
  if (!result.page)
    return {
      kind: 'invalid',
      problems: result.problems.length ? result.problems : [{ code: 'E_TYPE', file, pointer: '', message: 'no page' }],
    };
  return {
    kind: 'runtime',
    page: result.page,
    hash,
    reason: options.runtimeOnly ? 'runtime-only' : route ? 'hash-differs' : 'no-generated-page',
  };
}

/** resolveDefinition for a view, with the runtime form schema built from the model. */
export function resolveView(
  raw: unknown,
  options: ResolveOptions = {},
): Exclude<Resolution, { kind: 'runtime' }> | { kind: 'runtime'; page: ListPageModel; schema: ZodType; hash: string; reason: string } {
  const r = resolveDefinition('view', raw, options);
  if (r.kind !== 'runtime') return r;
  if (r.page.kind !== 'list')
    return { kind: 'invalid', problems: [{ code: 'E_TYPE', file: 'view', pointer: '', message: 'not a list view' }] };
  return { ...r, page: r.page, schema: buildSchema(r.page.form) };
}

type Loaded = { status: 'loading' } | { status: 'ready'; raw: unknown } | { status: 'failed'; message: string };

/**
 * One definition from the server (`GET /api/generation/detail?id=`, or the screen's); reload() asks
 * again. The build's page for that id, if it has one, starts loading at the same time: when the
 * definition's hash then matches, the generated page draws at once.
 */
export function useDefinition(
  kind: DefinitionKind,
  id: number | undefined,
  options: { preload?: boolean } = {},
): Loaded & { reload: () => void } {
  const preload = options.preload ?? true;
  const [state, setState] = useState<Loaded>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick asks again
  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    setState({ status: 'loading' });
    const route = preload ? routeOf(generatedRoutes, kind, id) : undefined;
    // A chunk that fails to load says so when the page is drawn (GeneratedPage).
    if (route) preloadPage(route).catch(() => {});
    http
      .get(kind === 'view' ? VIEW_DETAIL_URL : SCREEN_DETAIL_URL, { id })
      .then((raw) => live && setState({ status: 'ready', raw }))
      .catch((e: unknown) => live && setState({ status: 'failed', message: e instanceof Error ? e.message : String(e) }));
    return () => {
      live = false;
    };
  }, [kind, id, tick, preload]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** A definition that fails validation: every problem as `pointer: message`, never a white screen. */
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

const spinner = <Spin style={{ display: 'block', margin: '64px auto' }} />;

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

/** A generated page, drawn once its chunk has arrived (usually already, see useDefinition). */
export function GeneratedPage({ route }: { route: GeneratedRoute }) {
  const chunk = usePageChunk(route);
  if (chunk.status === 'loading') return spinner;
  if (chunk.status === 'failed') return <LoadFailed title={`页面 ${route.title} 加载失败`} message={chunk.message} onRetry={chunk.retry} />;
  return <chunk.Page />;
}

/** Renders a resolved view: the generated page or the runtime ListPage, or says why not. */
export function ViewFromDefinition({
  raw,
  runtimeOnly,
  fixedQuery,
}: {
  raw: unknown;
  runtimeOnly?: boolean;
  /** Filters of the caller (a dialog's foreign key); a generated page cannot take them, so they force run time. */
  fixedQuery?: Record<string, unknown>;
}): ReactNode {
  // bench/page-mount.bench.ts: from here to the ListPage's first commit, the same on both paths.
  useState(() => perfMark(PERF_MARKS.pageMountStart));
  const r = resolveView(raw, { runtimeOnly: runtimeOnly || fixedQuery !== undefined });
  useState(() => perfMark(PERF_MARKS.pageResolved, r.kind));
  switch (r.kind) {
    case 'generated':
      return <GeneratedPage route={r.route} />;
    case 'runtime':
      return <ListPage key={r.hash} model={r.page} schema={r.schema} fixedQuery={fixedQuery} />;
    case 'invalid':
      return <DefinitionProblems problems={r.problems} />;
    case 'undesigned':
      return <Result status="info" title="该视图尚未设计" />;
  }
}

/** A view by id: loads its definition, then draws it generated or at run time (see resolveDefinition). */
export function ResolvedView({
  viewId,
  definition,
  runtimeOnly,
  fixedQuery,
}: {
  viewId: number;
  /** Already loaded (a container loads its views' definitions for their tab titles). */
  definition?: unknown;
  runtimeOnly?: boolean;
  fixedQuery?: Record<string, unknown>;
}) {
  // A caller's filters force run time too (ViewFromDefinition): no generated chunk to fetch then.
  const loaded = useDefinition('view', definition === undefined ? viewId : undefined, {
    preload: !runtimeOnly && fixedQuery === undefined,
  });
  if (definition !== undefined) return <ViewFromDefinition raw={definition} runtimeOnly={runtimeOnly} fixedQuery={fixedQuery} />;
  if (loaded.status === 'loading') return spinner;
  if (loaded.status === 'failed') return <LoadFailed title={`视图 ${viewId} 加载失败`} message={loaded.message} onRetry={loaded.reload} />;
  return <ViewFromDefinition raw={loaded.raw} runtimeOnly={runtimeOnly} fixedQuery={fixedQuery} />;
}
