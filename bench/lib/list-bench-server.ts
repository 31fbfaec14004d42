// Child process of bench/server-list.bench.ts: a real reference server (its own process, so the
// load generator does not share its event loop) with one view table grown to BENCH_ROWS rows over
// BENCH_COMPANIES companies. The server takes its settings (LIST_INDEX, LIST_CACHE, DATABASE_POOL_SIZE, …)
// from this process's environment, as `npm start` does; the bench sets only what it must (address, an
// in-memory data folder, the database, the fixed captcha, no request signing, no per-IP login limit, no
// logging on stdout, which carries this process's answers to the bench).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { configFromEnv, type ServerConfig } from '../../server/config.js';
import { newStats } from '../../server/lowcode/view-index.js';
import { lowcodeState } from '../../server/lowcode/view-store.js';
import { startServer } from '../../server/start.js';
import { benchUser, seedBench, seedHash } from './list-bench-seed.js';
import { processCpuMs } from './measure.js';
import { type RunDatabase, runDatabase } from './pg-template.js';

/**
 * BENCH_DB_TIMES=1: time every statement by kind (block reads, counts, writes, the rest); with the
 * list cache's counters, printed on SIGUSR2 as a line of JSON (the bench reads it before and after a run).
 */
const dbTimes = new Map<string, { n: number; ms: number; max: number }>();
/** BENCH_EXPLAIN=1: the slowest statement of each kind, explained with its plan on SIGUSR2. */
const slowest = new Map<string, { ms: number; text: string; params: unknown }>();
function statementKind(text: string): string {
  if (text.includes('json_agg'))
    return `block${text.includes(' ilike ') ? ', text search' : ''}${text.includes('"#id"') ? ', past the first' : ', first'}`;
  if (/^\s*select count\(\*\)/.test(text)) return 'count';
  if (/^\s*insert into "?lc_view/.test(text)) return 'insert';
  if (/^\s*update "?lc_view/.test(text)) return 'update';
  if (/for update$/.test(text.trim())) return 'select for update';
  if (/^\s*(begin|commit|rollback)/.test(text)) return 'transaction';
  return text.replace(/\s+/g, ' ').trim().slice(0, 40);
}
/** Counts a statement of `ms` under its kind (BENCH_DB_TIMES=1). */
function timed(text: string, rest: unknown[], ms: number): void {
  // The bench's own explains are not the server's statements (and explaining one again fails).
  if (/^\s*explain\b/i.test(text)) return;
  let kind = statementKind(text);
  // A page read alone (a first sighting) or a block of pages, told by the statement's limit.
  const params = rest[0] as unknown[] | undefined;
  const limitAt = /limit \$(\d+)/.exec(text)?.[1];
  if (kind.startsWith('block') && Array.isArray(params) && limitAt)
    kind += Number(params[Number(limitAt) - 1]) < 100 ? ', page' : ', block';
  const d = dbTimes.get(kind) ?? { n: 0, ms: 0, max: 0 };
  d.n++;
  d.ms += ms;
  d.max = Math.max(d.max, ms);
  dbTimes.set(kind, d);
  if (process.env.BENCH_EXPLAIN === '1' && Array.isArray(params) && ms > (slowest.get(kind)?.ms ?? -1))
    slowest.set(kind, { ms, text, params });
}
if (process.env.BENCH_DB_TIMES === '1') {
  for (const method of ['query', 'exec'] as const) {
    const original = PGlite.prototype[method] as (...args: unknown[]) => Promise<unknown>;
    (PGlite.prototype as any)[method] = async function (this: PGlite, text: string, ...rest: unknown[]) {
      const t = performance.now();
      try {
        return await original.call(this, text, ...rest);
      } finally {
        timed(text, rest, performance.now() - t);
      }
    };
  }
  // On PostgreSQL, every statement of every connection (the pool's, the listening one), from sent to
  // answered: the time includes the wait for the event loop to read the answer.
  const timeQueries = (client: pg.Client) => {
    const marked = client as pg.Client & { benchTimed?: true };
    if (marked.benchTimed) return client;
    marked.benchTimed = true;
    const query = client.query as (...args: unknown[]) => unknown;
    (client as any).query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
      const answer = query.call(this, config, ...rest);
      // A statement is given as its text and values, or as one object.
      const c = config as { text?: unknown; values?: unknown } | null;
      const text = typeof config === 'string' ? config : typeof c?.text === 'string' ? c.text : undefined;
      if (text === undefined || !(answer instanceof Promise)) return answer;
      const values = typeof config === 'string' ? rest : [c?.values];
      const t = performance.now();
      const done = () => timed(text, values, performance.now() - t);
      answer.then(done, done);
      return answer;
    };
    return client;
  };
  const clientConnect = pg.Client.prototype.connect as (...args: unknown[]) => unknown;
  (pg.Client.prototype as any).connect = function (this: pg.Client, ...args: unknown[]) {
    timeQueries(this);
    return clientConnect.apply(this, args);
  };
}

const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const companyCount = Number(process.env.BENCH_COMPANIES ?? 10);
const viewId = Number(process.env.BENCH_VIEW_ID ?? 12);
if (!(Number.isInteger(rows) && rows >= 0 && Number.isInteger(companyCount) && companyCount >= 1))
  throw new Error(`BENCH_ROWS (${process.env.BENCH_ROWS}) and BENCH_COMPANIES (${process.env.BENCH_COMPANIES}) must be whole numbers`);

/** What the bench sets whatever the environment says; every other setting is the environment's. */
const benchConfig = (databaseUrl: string | undefined): Partial<ServerConfig> => ({
  host: '127.0.0.1',
  port: 0,
  dataDir: 'memory://',
  databaseUrl,
  captchaFixed: '8888',
  signSecret: undefined,
  // Every bench account logs in from 127.0.0.1 (up to 50 of them at once).
  loginRateMax: 100_000,
  captchaRateMax: 100_000,
  logLevel: 'silent',
  staticDir: '/nonexistent',
});
/** The server settings this environment gives (what the server's configuration reads and finds set). */
const read = new Set<string>();
configFromEnv(
  new Proxy(process.env, {
    get: (target, key) => {
      if (typeof key === 'string') read.add(key);
      return target[key as string];
    },
  }),
);
const fixedByBench = new Set([
  'HOST',
  'PORT',
  'DATA_DIR',
  'DATABASE_URL',
  'CAPTCHA_FIXED',
  'SIGN_SECRET',
  'LOGIN_RATE_MAX',
  'CAPTCHA_RATE_MAX',
  'LOG_LEVEL',
  'STATIC_DIR',
]);
const fromEnvironment = Object.fromEntries(
  [...read].filter((k) => process.env[k] !== undefined && !fixedByBench.has(k)).map((k) => [k, process.env[k] as string]),
);

// On PostgreSQL, a database of its own for this run, dropped at the end: a copy of a template database
// seeded once per size and seeding (BENCH_TEMPLATE=0: seeded in place; BENCH_RESEED=1: the template again).
let databaseUrl: string | undefined;
let prepared: RunDatabase | undefined;
let seedMs = 0;
// A second instance joins the first one's database as it is (BENCH_JOIN_URL): no new rows, nothing dropped.
const joining = process.env.BENCH_JOIN_URL;
if (joining) databaseUrl = joining;
else if (process.env.DATABASE_URL) {
  const template = process.env.BENCH_TEMPLATE === '0' ? undefined : `wg_bench_t_${rows}_${companyCount}_${seedHash()}`;
  prepared = await runDatabase(
    process.env.DATABASE_URL,
    template,
    async (url) => {
      const t0 = Date.now();
      const seeding = await startServer(benchConfig(url), process.env);
      try {
        const t1 = Date.now();
        const rowsMs = await seedBench(seeding.ctx.db as any, { rows, companies: companyCount, viewId });
        const t2 = Date.now();
        // As after a restore, and as autovacuum leaves a table on PostgreSQL: statistics, and the
        // visibility map that lets a count read only an index.
        await sql.raw('vacuum analyze').execute(seeding.ctx.db);
        const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        process.stderr.write(
          `seeding: schema and demo data ${s(t1 - t0)}, companies and accounts ${s(t2 - t1 - rowsMs)}, ` +
            `${rows} rows with their indexes ${s(rowsMs)}, vacuum analyze ${s(Date.now() - t2)}\n`,
        );
      } finally {
        await seeding.close();
      }
    },
    process.env.BENCH_RESEED === '1',
  );
  databaseUrl = prepared.url;
  seedMs = prepared.seedMs;
  // The seeding's statements are not the run's.
  dbTimes.clear();
  slowest.clear();
}
const dropDatabase = async () => {
  await prepared?.drop();
};

const server = await startServer(benchConfig(databaseUrl), process.env);
const db = server.ctx.db as any;
if (!databaseUrl) {
  const t = Date.now();
  await seedBench(db, { rows, companies: companyCount, viewId });
  await sql.raw(`vacuum analyze lc_view_${viewId}`).execute(db);
  seedMs = Date.now() - t;
}

// The bench's companies (the first by id), each with one bench account of the producer role.
const companies = (await db.selectFrom('company').select('id').orderBy('id').limit(companyCount).execute()) as { id: number }[];
if (companies.length < companyCount)
  throw new Error(`the database has ${companies.length} companies, the bench spreads over ${companyCount}`);
/** Every account's company, for the bench to check that no answer holds another company's row. */
const owners = Object.fromEntries(
  ((await db.selectFrom('sys_user').select(['username', 'company_id']).execute()) as { username: string; company_id: number | null }[]).map(
    (u) => [u.username, u.company_id],
  ),
);
/** A warehouse of each account's company, for the records it adds. */
const warehouseRows = (
  await sql<{ id: number; company_id: number | null }>`select id, company_id from company_warehouse order by id`.execute(db)
).rows;
const firstWarehouse = new Map<number, number>();
for (const w of warehouseRows)
  if (w.company_id !== null && !firstWarehouse.has(Number(w.company_id))) firstWarehouse.set(Number(w.company_id), w.id);
const warehouses = Object.fromEntries(
  Object.entries(owners).map(([username, company]) => [
    username,
    (company === null ? warehouseRows[0]?.id : firstWarehouse.get(Number(company))) ?? null,
  ]),
);
const def = (await db.selectFrom('lc_generation').select('dis_template').where('id', '=', viewId).executeTakeFirst())?.dis_template;
const template = JSON.parse(def ?? '{}');
process.stdout.write(
  `${JSON.stringify({
    url: server.url,
    kind: server.database.kind,
    seedMs,
    copyMs: prepared?.copyMs ?? 0,
    databaseTemplate: prepared?.template,
    templateReused: prepared?.reused ?? false,
    settings: {
      rows,
      companies: companyCount,
      'list cache (LIST_CACHE)': server.config.listCache,
      'rows in memory (LIST_INDEX)': server.config.listIndex,
      ...(server.database.kind === 'postgres' ? { 'pool size (DATABASE_POOL_SIZE)': server.config.databasePoolSize } : {}),
      'from the environment': fromEnvironment,
      'node options': process.execArgv.filter((a) => a !== '--import' && a !== 'tsx').join(' '),
      // The C allocator's arenas (server/process-options.json sets them as npm start does).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? 'glibc default',
    },
    template,
    databaseUrl,
    accounts: companies.map((c) => benchUser(c.id)),
    owners,
    warehouses,
  })}\n`,
);
// How long the event loop was held at a time (what a request waits behind), since the last snapshot.
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
// On PostgreSQL, sampled every 50 ms: queries waiting for a pooled connection, and this database's
// backends waiting on a lock (row locks, the notify queue's lock, advisory locks) or for the disk's flush.
const waits = { samples: 0, poolWaiting: 0, poolWaitingMax: 0, lockWaits: 0, walWaits: 0 };
const pool = server.database.pool;
if (pool) {
  const sampler = new pg.Client({ connectionString: databaseUrl });
  await sampler.connect();
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    const p = pool();
    waits.samples++;
    waits.poolWaiting += p.waiting;
    waits.poolWaitingMax = Math.max(waits.poolWaitingMax, p.waiting);
    try {
      const r = await sampler.query(
        `select count(*) filter (where wait_event_type = 'Lock')::int as lock,
                count(*) filter (where wait_event_type = 'IO' and wait_event like 'WAL%')::int as wal
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      );
      waits.lockWaits += r.rows[0].lock;
      waits.walWaits += r.rows[0].wal;
    } catch {
      // The database is going away with the run.
    }
    busy = false;
  }, 50);
  timer.unref();
  process.once('SIGTERM', () => {
    clearInterval(timer);
    void sampler.end().catch(() => {});
  });
}
process.on('SIGUSR2', () => {
  const state = lowcodeState(server.ctx);
  const stats = {
    ...state.cache.stats,
    ...Object.fromEntries(Object.entries(state.indexes?.stats ?? newStats()).map(([k, v]) => [`index ${k}`, v])),
  };
  // What the heap has taken from the machine before a collection: V8 grows it past what is live.
  const committed = process.memoryUsage().heapTotal / 2 ** 20;
  // With --expose-gc (BENCH_SERVER_ARGS), what stays in use rather than what awaits collection.
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  const heap = memory.heapUsed / 2 ** 20;
  const ms = (ns: number) => +(ns / 1e6).toFixed(1);
  const gauges = {
    'cache weight': state.cache.weight,
    'cache entries': state.cache.size.entries,
    'cache filters': state.cache.size.filters,
    'rows in memory': state.indexes ? state.indexes.heldRows : -1,
    'views being read': state.indexes?.building ?? 0,
    'heap MB': Math.round(heap),
    'heap committed MB': Math.round(committed),
    // Outside the heap: buffers (cached list bodies among them).
    'buffers MB': Math.round(memory.arrayBuffers / 2 ** 20),
    // The whole process as the machine sees it (the young generation's room is in it, not in the heap figure).
    'resident MB': Math.round(memory.rss / 2 ** 20),
    // The most the process has held resident since it started (Linux reports it in KB).
    'peak resident MB': Math.round(process.resourceUsage().maxRSS / 1024),
    'loop delay p99 ms': ms(loop.percentile(99)),
    'loop delay max ms': ms(loop.max),
    ...(waits.samples
      ? {
          'pool waiting (mean)': +(waits.poolWaiting / waits.samples).toFixed(1),
          'pool waiting (max)': waits.poolWaitingMax,
          'backends on a lock (mean)': +(waits.lockWaits / waits.samples).toFixed(2),
          'backends on WAL (mean)': +(waits.walWaits / waits.samples).toFixed(2),
        }
      : {}),
  };
  Object.assign(waits, { samples: 0, poolWaiting: 0, poolWaitingMax: 0, lockWaits: 0, walWaits: 0 });
  loop.reset();
  for (const [kind, s] of slowest) {
    if (!/^(block|count)/.test(kind)) continue;
    void (server.ctx.db as any)
      .executeQuery({ sql: `explain (analyze, buffers) ${s.text}`, parameters: s.params ?? [] })
      .then((r: { rows: Record<string, string>[] }) =>
        process.stderr.write(
          `\n== ${kind} (${s.ms.toFixed(1)} ms)\n${s.text}\n${JSON.stringify(s.params)}\n${r.rows.map((x) => Object.values(x)[0]).join('\n')}\n`,
        ),
      )
      // A plan that cannot be had (the statement's database is going away) is said, not fatal.
      .catch((e: unknown) => process.stderr.write(`\n== ${kind}: no plan (${e instanceof Error ? e.message : String(e)})\n`));
  }
  slowest.clear();
  process.stdout.write(`${JSON.stringify({ stats, gauges, dbTimes: Object.fromEntries(dbTimes), cpuMs: processCpuMs() })}\n`);
});
process.on('SIGTERM', async () => {
  await server.close();
  await dropDatabase();
  process.exit(0);
});
