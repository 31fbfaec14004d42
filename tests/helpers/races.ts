import type { ApiResponse } from './server.js';

/**
 * Two requests made to overlap, for races: in even rounds `a` starts first, in odd ones `b`, the other
 * a gap later. A gap of g ≥ 0 is g ms; g < 0 is -g turns of the event loop. The gaps of successive
 * pairs of rounds sweep the window in which each request judges and writes.
 */
export async function overlap<A, B>(i: number, gaps: readonly number[], a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  const gap = () => offset(gaps[Math.floor(i / 2) % gaps.length] ?? 0);
  if (i % 2) {
    const pb = b();
    await gap();
    return [await a(), await pb];
  }
  const pa = a();
  await gap();
  return Promise.all([pa, b()]);
}

/** Waits g ms (g ≥ 0), or -g turns of the event loop. */
export async function offset(g: number): Promise<void> {
  if (g >= 0) return new Promise((r) => setTimeout(r, g));
  for (let k = 0; k < -g; k++) await new Promise((r) => setImmediate(r));
}

/** How long a request of a race may take before it is taken for a hang (a deadlock, a lock never released). */
const HANG_MS = 15_000;

/** The answer, or a 599 naming the request when it does not answer within HANG_MS. */
export function settled(p: Promise<ApiResponse>, what: string): Promise<ApiResponse> {
  let t: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    t = setTimeout(() => reject(new Error(`HANG (> ${HANG_MS} ms): ${what}`)), HANG_MS);
  });
  return Promise.race([p.finally(() => clearTimeout(t)), hang]).catch(
    (e: Error) => ({ status: 599, body: { hang: e.message }, headers: new Headers() }) as unknown as ApiResponse,
  );
}
