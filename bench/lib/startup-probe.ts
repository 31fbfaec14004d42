// Loaded before server/main.ts by bench/server-startup.bench.ts (`--import`): times every statement the
// server runs from its start, and on SIGUSR2 prints one line to stdout, `#probe {…}`: the process's memory
// (after a collection when --expose-gc is given), the statements so far (count and total ms) and the
// slowest of them. The server itself is started as `npm start` starts it.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const statements: { text: string; ms: number }[] = [];
/** Every statement until the first probe, when BENCH_STATEMENTS=1: when it began (ms since the process began) and its time. */
const all: { at: number; ms: number; text: string }[] | undefined = process.env.BENCH_STATEMENTS === '1' ? [] : undefined;
let listed = all;
let count = 0;
let totalMs = 0;
/** Slowest statements kept, by time. */
const KEPT = 8;

function timed(text: string, ms: number): void {
  listed?.push({ at: +(performance.now() - ms).toFixed(1), ms: +ms.toFixed(1), text: text.replace(/\s+/g, ' ').trim().slice(0, 120) });
  count++;
  totalMs += ms;
  if (statements.length < KEPT || ms > (statements.at(-1)?.ms ?? 0)) {
    statements.push({ text: text.replace(/\s+/g, ' ').trim().slice(0, 160), ms: +ms.toFixed(1) });
    statements.sort((a, b) => b.ms - a.ms);
    statements.length = Math.min(statements.length, KEPT);
  }
}

for (const method of ['query', 'exec'] as const) {
  const original = PGlite.prototype[method] as (...args: unknown[]) => Promise<unknown>;
  (PGlite.prototype as any)[method] = async function (this: PGlite, text: string, ...rest: unknown[]) {
    const t = performance.now();
    try {
      return await original.call(this, text, ...rest);
    } finally {
      timed(String(text), performance.now() - t);
    }
  };
}
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as any).query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  const answer = query.call(this, config, ...rest);
  const c = config as { text?: unknown } | null;
  const text = typeof config === 'string' ? config : typeof c?.text === 'string' ? c.text : undefined;
  if (text === undefined || !(answer instanceof Promise)) return answer;
  const t = performance.now();
  const done = () => timed(text, performance.now() - t);
  answer.then(done, done);
  return answer;
};

process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const mb = (n: number) => Math.round(n / 2 ** 20);
  const cpu = process.cpuUsage();
  process.stdout.write(
    `#probe ${JSON.stringify({
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      upMs: Math.round(performance.now()),
      heapMB: mb(m.heapUsed),
      rssMB: mb(m.rss),
      externalMB: mb(m.external),
      statements: count,
      statementMs: Math.round(totalMs),
      slowest: statements,
      ...(listed ? { all: listed } : {}),
    })}\n`,
  );
  listed = undefined;
});
