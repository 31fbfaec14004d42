import { compareText } from './problems.js';

/**
 * The one ordering helper: sorts on explicit keys, ascending, with the original index as the final
 * tiebreak, so that the result never depends on the order keys happened to arrive in.
 */
export function sortByKeys<T>(items: readonly T[], ...keys: ((item: T) => number | string | undefined)[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      for (const key of keys) {
        const x = key(a.item);
        const y = key(b.item);
        if (x === y) continue;
        if (x === undefined) return 1;
        if (y === undefined) return -1;
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : compareText(String(x), String(y));
        if (c !== 0) return c;
      }
      return a.index - b.index;
    })
    .map(({ item }) => item);
}
