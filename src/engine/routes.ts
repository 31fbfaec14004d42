import { type ComponentType, useEffect, useReducer, useState } from 'react';

/** One entry of the route table that `wastegen generate` writes; the app passes it in through EngineServices. */
export interface GeneratedRoute {
  path: string;
  kind: 'view' | 'screen';
  /** View id or screen id. */
  id: number;
  title: string;
  /** Content hash of the definition the page was generated from (src/model/canonical.ts). */
  hash: string;
  /** 0 draft or disabled, 1 published or enabled. */
  status: number;
  /** Loads the page's own chunk. */
  load: () => Promise<{ default: ComponentType }>;
}

/** Page components whose chunk has arrived, and chunks on their way, by route. */
const loaded = new WeakMap<GeneratedRoute, ComponentType>();
const loading = new WeakMap<GeneratedRoute, Promise<ComponentType>>();
/**
 * The chunk address a failed load named. Some browsers keep a failed dynamic import failed for the
 * page's life, so a retry asks for the same chunk under another address.
 */
const failedChunk = new WeakMap<GeneratedRoute, string>();

/**
 * Starts loading a generated page's chunk (once; a failed load may be tried again). Called beside
 * the definition fetch, so that by the time the definition says the generated page applies, its
 * chunk is usually there and the page draws at once instead of behind a spinner.
 */
export function preloadPage(route: GeneratedRoute): Promise<ComponentType> {
  const done = loaded.get(route);
  if (done) return Promise.resolve(done);
  let pending = loading.get(route);
  if (!pending) {
    const failedAt = failedChunk.get(route);
    const load = failedAt ? () => import(/* @vite-ignore */ `${failedAt}?retry=${Date.now()}`) : route.load;
    pending = load().then(
      (m: { default: ComponentType }) => {
        loaded.set(route, m.default);
        return m.default;
      },
      (e: unknown) => {
        loading.delete(route);
        const at = e instanceof Error ? /https?:\/\/\S+?\.js\b/.exec(e.message)?.[0] : undefined;
        if (at) failedChunk.set(route, at);
        throw e;
      },
    );
    loading.set(route, pending);
  }
  return pending;
}

/** The route of a view or screen id, if the build has a page for it. */
export function routeOf(routes: readonly GeneratedRoute[], kind: GeneratedRoute['kind'], id: number): GeneratedRoute | undefined {
  return routes.find((r) => r.kind === kind && r.id === id);
}

export type PageChunk =
  | { status: 'ready'; Page: ComponentType }
  | { status: 'loading' }
  | { status: 'failed'; message: string; retry: () => void };

/** A generated page's component: at once when its chunk has arrived, else once it does. */
export function usePageChunk(route: GeneratedRoute): PageChunk {
  // The component lives in the module cache (`loaded`); state only says a load ended.
  const [, arrived] = useReducer((n: number) => n + 1, 0);
  const [failure, setFailure] = useState<{ route: GeneratedRoute; message: string }>();
  const [attempt, setAttempt] = useState(0);
  const Page = loaded.get(route);
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt: 重试 loads again
  useEffect(() => {
    // What this render saw, not the cache now: a chunk that arrived between the render and this
    // effect must still draw the page (preloadPage then answers at once).
    if (Page) return;
    let live = true;
    preloadPage(route).then(
      () => live && arrived(),
      (e: unknown) => live && setFailure({ route, message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [route, attempt, Page]);
  if (Page) return { status: 'ready', Page };
  if (failure?.route === route)
    return {
      status: 'failed',
      message: failure.message,
      retry: () => {
        setFailure(undefined);
        setAttempt((a) => a + 1);
      },
    };
  return { status: 'loading' };
}
