import { useCallback, useEffect, useMemo, useState } from 'react';
import { PERF_MARKS, perfMark } from '../perf-marks';
import { preloadPage, routeOf } from '../routes';
import { type DefinitionKind, detailUrlOf, type Resolution, type ResolveOptions, resolveDefinition } from '../runtime/resolve';
import { HttpError, useEngineServices } from '../services';

/**
 * A definition fetched by id, and which renderer draws it: the generated page when the build has
 * one whose hash matches, else the runtime renderer. The build's page for that id, if any, starts
 * loading beside the fetch, so that when the hashes then agree the generated page draws at once.
 */
export type DefinitionState =
  | { status: 'loading' }
  | { status: 'failed'; error: HttpError }
  | { status: 'ready'; raw: unknown; resolution: Resolution };

export interface DefinitionOptions {
  /** Draw at run time even when the build has a page (previews, dialogs that pass filters of their own). */
  runtimeOnly?: boolean;
}

type Fetched = { status: 'loading' } | { status: 'failed'; error: HttpError } | { status: 'ready'; raw: unknown };

/**
 * resolveDefinition, between the marks the page-mount benchmark reads for views: the fetched
 * definition starts being drawn, then it is resolved (detail: the resolution's kind).
 */
export function resolveMarked(kind: DefinitionKind, raw: unknown, options: ResolveOptions): Resolution {
  if (kind === 'view') perfMark(PERF_MARKS.pageMountStart);
  const resolution = resolveDefinition(kind, raw, options);
  if (kind === 'view') perfMark(PERF_MARKS.pageResolved, resolution.kind);
  return resolution;
}

const failureOf = (e: unknown) => (e instanceof HttpError ? e : new HttpError(e instanceof Error ? e.message : String(e), 0));

/** Several definitions side by side (a container's views); a failed one is asked for again on its own. */
export function useDefinitions(
  kind: DefinitionKind,
  ids: readonly number[],
  options: DefinitionOptions = {},
): { states: ReadonlyMap<number, DefinitionState>; reload: (id: number) => void } {
  const { data, routes } = useEngineServices();
  const runtimeOnly = !!options.runtimeOnly;
  const [fetched, setFetched] = useState<ReadonlyMap<number, Fetched>>(() => new Map());
  const load = useCallback(
    (id: number, signal: AbortSignal) => {
      setFetched((s) => new Map(s).set(id, { status: 'loading' }));
      // A chunk that fails to load says so when the page is drawn.
      const route = runtimeOnly ? undefined : routeOf(routes, kind, id);
      if (route) preloadPage(route).catch(() => {});
      data
        // The page shows what went wrong itself: no notice besides.
        .custom({ url: detailUrlOf(kind), query: { id }, silent: true, signal })
        .then(
          (raw) => !signal.aborted && setFetched((s) => new Map(s).set(id, { status: 'ready', raw })),
          (e: unknown) => !signal.aborted && setFetched((s) => new Map(s).set(id, { status: 'failed', error: failureOf(e) })),
        );
    },
    [data, routes, kind, runtimeOnly],
  );
  const [controllers] = useState(() => new Map<number, AbortController>());
  const start = useCallback(
    (id: number) => {
      controllers.get(id)?.abort();
      const controller = new AbortController();
      controllers.set(id, controller);
      load(id, controller.signal);
    },
    [controllers, load],
  );
  const key = ids.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for ids
  useEffect(() => {
    for (const id of ids) start(id);
    return () => {
      for (const c of controllers.values()) c.abort();
      controllers.clear();
    };
  }, [key, start, controllers]);
  // One resolution per answer: a generated page or a model and its schema, not rebuilt on each render.
  const [resolved] = useState(() => new WeakMap<object, Resolution>());
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for ids
  const states = useMemo(() => {
    const out = new Map<number, DefinitionState>();
    for (const id of ids) {
      const f = fetched.get(id);
      if (!f || f.status === 'loading') out.set(id, { status: 'loading' });
      else if (f.status === 'failed') out.set(id, f);
      else {
        let resolution = resolved.get(f);
        if (!resolution) {
          resolution = resolveMarked(kind, f.raw, { routes, runtimeOnly });
          resolved.set(f, resolution);
        }
        out.set(id, { status: 'ready', raw: f.raw, resolution });
      }
    }
    return out;
  }, [fetched, key, kind, routes, runtimeOnly, resolved]);
  return { states, reload: start };
}

/** One definition; `reload` asks for it again. Nothing is fetched while `id` is undefined. */
export function useDefinition(
  kind: DefinitionKind,
  id: number | undefined,
  options: DefinitionOptions = {},
): DefinitionState & { reload: () => void } {
  const ids = useMemo(() => (id === undefined ? [] : [id]), [id]);
  const { states, reload } = useDefinitions(kind, ids, options);
  const state = (id === undefined ? undefined : states.get(id)) ?? { status: 'loading' };
  const again = useCallback(() => id !== undefined && reload(id), [id, reload]);
  return { ...state, reload: again };
}
