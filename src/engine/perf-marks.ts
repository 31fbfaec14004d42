/**
 * User Timing marks the benchmarks read in the page (bench/list-render.bench.ts,
 * bench/page-mount.bench.ts). Cheap: one `performance.mark` each, the previous mark of the same name
 * cleared so a long session's timeline stays small. No-ops where the User Timing API is missing.
 */
export const PERF_MARKS = {
  /** A list answer is about to be set into the list page's state. */
  listData: 'wastegen:list-data',
  /** The table has committed with that answer's rows (layout effect: DOM updated, not yet painted). */
  listRendered: 'wastegen:list-rendered',
  /** A fetched view definition starts being drawn (before it is resolved to a generated or runtime page). */
  pageMountStart: 'wastegen:page-mount-start',
  /** The definition was resolved; detail: 'generated', 'runtime', 'invalid' or 'undesigned'. */
  pageResolved: 'wastegen:page-resolved',
  /** A list page's first commit. */
  pageMounted: 'wastegen:page-mounted',
} as const;

export function perfMark(name: string, detail?: unknown): void {
  const p = globalThis.performance;
  if (typeof p?.mark !== 'function') return;
  p.clearMarks?.(name);
  p.mark(name, detail === undefined ? undefined : { detail });
}
