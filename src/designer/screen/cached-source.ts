import type { ScreenDataSource } from '../../engine/index.js';

/**
 * A data source that asks once per data view while its answer is fresh: the designer's charts keep
 * their last answer across edits instead of refetching whenever the screen changes, and ask again
 * once the answer is as old as the screen's refresh period (`basic.timer`). A failure is forgotten,
 * so it is asked again.
 */
export interface CachedSource extends ScreenDataSource {
  /** How long an answer serves, from when it was asked for; null: for good. */
  setMaxAge(ms: number | null): void;
}

export function cachedSource(source: ScreenDataSource, now: () => number = Date.now): CachedSource {
  const answers = new Map<string, { at: number; answer: Promise<unknown> }>();
  let maxAge: number | null = null;
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const kept = answers.get(key);
    if (kept && (maxAge === null || now() - kept.at < maxAge)) return kept.answer as Promise<T>;
    const answer = load();
    answers.set(key, { at: now(), answer });
    answer.catch(() => {
      if (answers.get(key)?.answer === answer) answers.delete(key);
    });
    return answer;
  };
  // Requests are shared between schedulers, so none is cancelled by one scheduler stopping.
  const never = new AbortController().signal;
  return {
    dataView: (id) => once(`view:${id}`, () => source.dataView(id, never)),
    cityInfo: (id) => once(`city:${id ?? ''}`, () => source.cityInfo(id, never)),
    setMaxAge: (ms) => {
      maxAge = ms;
    },
  };
}
