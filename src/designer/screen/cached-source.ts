import type { ScreenDataSource } from '../../engine/index.js';

/**
 * A data source that asks once per data view: the designer's charts keep their last answer across
 * edits instead of refetching whenever the screen changes. A failure is forgotten, so it is asked again.
 */
export function cachedSource(source: ScreenDataSource): ScreenDataSource {
  const answers = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let p = answers.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      answers.set(key, p);
      p.catch(() => answers.delete(key));
    }
    return p;
  };
  // Requests are shared between schedulers, so none is cancelled by one scheduler stopping.
  const never = new AbortController().signal;
  return {
    dataView: (id) => once(`view:${id}`, () => source.dataView(id, never)),
    cityInfo: (id) => once(`city:${id ?? ''}`, () => source.cityInfo(id, never)),
  };
}
