/**
 * Pages that must not close without asking (unsaved work) register a guard under their path; the tag
 * bar asks every guard of the tags it is about to close, and closes none when one says no.
 */
type Guard = () => Promise<boolean> | boolean;

const guards = new Map<string, Guard>();

/** Sets (or, with null, removes) the guard of a page's path; returns the function that removes it. */
export function setCloseGuard(path: string, guard: Guard | null): () => void {
  if (guard) guards.set(path, guard);
  else guards.delete(path);
  return () => {
    if (guards.get(path) === guard) guards.delete(path);
  };
}

/** Whether every page among `paths` agrees to close, asked one after another. */
export async function mayClose(paths: readonly string[]): Promise<boolean> {
  for (const path of paths) {
    const guard = guards.get(path);
    if (guard && !(await guard())) return false;
  }
  return true;
}
