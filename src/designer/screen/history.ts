/**
 * Undo and redo over whole states. A new step clears the redo steps; at most `limit` steps are kept.
 * Steps with the same group (typing in one field) merge into one until the group is sealed (the
 * field loses focus) or another edit comes in.
 */

export const HISTORY_LIMIT = 100;

export interface History<T> {
  past: readonly T[];
  present: T;
  future: readonly T[];
  /** The group of the last step, while it may still take more edits. */
  group?: string;
}

export const historyOf = <T>(present: T): History<T> => ({ past: [], present, future: [] });

export function record<T>(h: History<T>, next: T, group?: string, limit = HISTORY_LIMIT): History<T> {
  if (Object.is(next, h.present)) return group === h.group ? h : { ...h, group };
  if (group !== undefined && group === h.group && h.past.length > 0) return { past: h.past, present: next, future: [], group };
  const past = [...h.past, h.present];
  return { past: past.length > limit ? past.slice(past.length - limit) : past, present: next, future: [], group };
}

/** Ends the open group: the next edit is a step of its own. */
export const seal = <T>(h: History<T>): History<T> => (h.group === undefined ? h : { ...h, group: undefined });

export function undo<T>(h: History<T>): History<T> {
  const previous = h.past[h.past.length - 1];
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: previous as T, future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0] as T, future: h.future.slice(1) };
}
