// Child process of bench/server-list.bench.ts: a real reference server (its own process, so the
// load generator does not share its event loop) with one view table grown to N rows.
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { hashPassword } from '../../server/auth.js';
import { newStats } from '../../server/lowcode/view-index.js';
import { lowcodeState } from '../../server/lowcode/view-store.js';
import { startServer } from '../../server/start.js';
import { processCpuMs } from './measure.js';

// On PostgreSQL, a database of its own for this run, dropped at the end.
let databaseUrl: string | undefined;
let dropDatabase = async () => {};
// A second instance joins the first one's database as it is (BENCH_JOIN_URL): no new rows, nothing dropped.
const joining = process.env.BENCH_JOIN_URL;
if (joining) databaseUrl = joining;
else if (process.env.DATABASE_URL) {
  const admin = process.env.DATABASE_URL;
  const name = `wg_bench_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  dropDatabase = async () => {
    const d = new pg.Client({ connectionString: admin });
    await d.connect();
    await d.query(`drop database if exists ${name} with (force)`);
    await d.end();
  };
}

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
const viewId = Number(process.env.BENCH_VIEW_ID ?? 12);
const server = await startServer(
  {
    host: '127.0.0.1',
    port: 0,
    dataDir: 'memory://',
    databaseUrl,
    captchaFixed: '8888',
    logLevel: 'silent',
    staticDir: '/nonexistent',
    listCache: process.env.LIST_CACHE !== '0',
  },
  {},
);
const db = server.ctx.db as any;
const table = `lc_view_${viewId}`;

// Ten companies, each with one bench account of the producer role (data scope 本企业), own the rows.
const COMPANIES = 10;
const companies = (await db.selectFrom('company').select(['id', 'dept_code']).orderBy('id').limit(COMPANIES).execute()) as {
  id: number;
  dept_code: string | null;
}[];
if (companies.length < COMPANIES) throw new Error(`the seed has ${companies.length} companies, the bench spreads over ${COMPANIES}`);
const benchUser = (companyId: number) => `bench${companyId}`;
if (!joining) {
  const role = (await db.selectFrom('sys_role').select('id').where('name', '=', '产废企业').executeTakeFirstOrThrow()).id;
  const depts = (await db.selectFrom('sys_dept').select(['id', 'code']).execute()) as { id: number; code: string | null }[];
  const fallbackDept =
    (await db.selectFrom('sys_user').select('dept_id').where('username', '=', 'producer').executeTakeFirst())?.dept_id ?? null;
  const password = await hashPassword('Waste@2026');
  for (const c of companies) {
    const dept = depts.find((d) => d.code !== null && d.code === c.dept_code)?.id ?? fallbackDept;
    const user = await db
      .insertInto('sys_user')
      .values({
        username: benchUser(c.id),
        nick_name: `压测${c.id}`,
        password,
        company_id: c.id,
        dept_id: dept,
        pwd_reset_time: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('sys_users_roles').values({ user_id: user.id, role_id: role }).execute();
  }
}
// Seeded rows of companies without accounts name no creator: the bench account of their company takes
// them, so that every row's createBy tells its company.
if (!joining) {
  for (const c of companies) {
    await sql`update ${sql.table(table)} set create_by = ${benchUser(c.id)} where create_by is null and create_company = ${c.id}`.execute(
      db,
    );
  }
}
/** Every account's company, for the bench to check that no answer holds another company's row. */
const owners = Object.fromEntries(
  ((await db.selectFrom('sys_user').select(['username', 'company_id']).execute()) as { username: string; company_id: number | null }[]).map(
    (u) => [u.username, u.company_id],
  ),
);
// Every bench company has a warehouse for its records to name: a record may pick only its own company's.
if (!joining) {
  for (const c of companies) {
    await sql`insert into lc_view_14 ("name", create_company, create_dept, create_by)
      select ${`压测仓库${c.id}`}, ${c.id}, u.dept_id, u.username from sys_user u
      where u.username = ${benchUser(c.id)} and not exists (select 1 from company_warehouse w where w.company_id = ${c.id})`.execute(db);
  }
}
/** A warehouse of each account's company, for the records it adds. */
const warehouseRows = (
  await sql<{ id: number; company_id: number | null }>`select id, company_id from company_warehouse order by id`.execute(db)
).rows;
const warehouses = Object.fromEntries(
  Object.entries(owners).map(([username, company]) => [
    username,
    (company === null ? warehouseRows[0] : warehouseRows.find((w) => Number(w.company_id) === Number(company)))?.id ?? null,
  ]),
);
const ownerRows = await db
  .selectFrom('sys_user')
  .select(['username', 'company_id', 'dept_id'])
  .where(
    'username',
    'in',
    companies.map((c) => benchUser(c.id)),
  )
  .orderBy('company_id')
  .execute();
const ownerArray = (pick: (u: { username: string; company_id: number; dept_id: number | null }) => unknown) =>
  `(array[${ownerRows.map((u: any) => (pick(u) === null ? 'null' : typeof pick(u) === 'string' ? `'${pick(u)}'` : pick(u))).join(',')}])[1 + g % ${ownerRows.length}]`;
const OWNER_EXPRS: Record<string, string> = {
  create_by: ownerArray((u) => u.username),
  create_company: ownerArray((u) => u.company_id),
  create_dept: `${ownerArray((u) => u.dept_id)}::bigint`,
};

const cols = (
  await sql<{ column_name: string; data_type: string }>`
    select column_name, data_type from information_schema.columns
    where table_name = ${table} and column_name not in ('id', 'create_time', 'update_time')
    order by ordinal_position`.execute(db)
).rows;
if (!cols.length) throw new Error(`table ${table} not found: is view ${viewId} seeded and designed?`);
const def = (await db.selectFrom('lc_generation').select('dis_template').where('id', '=', viewId).executeTakeFirst())?.dis_template;
const template = JSON.parse(def ?? '{}');
const items: any[] = Array.isArray(template.tableOption) ? template.tableOption : (template.tableOption?.items ?? []);
const dictOf = new Map<string, string>(items.filter((f) => f?.configure?.dict).map((f) => [f.name, f.configure.dict]));
const exprs: string[] = [];
for (const c of cols) {
  const dict = dictOf.get(c.column_name);
  const owner = OWNER_EXPRS[c.column_name];
  if (owner) exprs.push(owner);
  else if (dict) {
    const values = (
      await sql<{
        value: string;
      }>`select d.value from sys_dict_detail d join sys_dict s on s.id = d.dict_id where s.name = ${dict} order by d.sort, d.id`.execute(db)
    ).rows.map((r) => r.value.replace(/'/g, "''"));
    exprs.push(values.length ? `(array[${values.map((v) => `'${v}'`).join(',')}])[1 + g % ${values.length}]` : `'v' || (g % 7)`);
  } else if (/int/.test(c.data_type)) exprs.push('g % 1000');
  else if (/numeric|double|real/.test(c.data_type)) exprs.push('round((g % 997) * 1.137, 3)');
  else if (/timestamp|date/.test(c.data_type)) exprs.push(`timestamp '2026-01-01' + (g || ' minutes')::interval`);
  else exprs.push(`'记录' || g`);
}
const t0 = Date.now();
if (!joining) {
  // Loaded as a restore loads: the view's indexes are built once the rows are in (much faster than
  // growing them row by row), the same indexes the design made.
  const indexes = (
    await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where tablename = ${table} and indexname <> ${`${table}_pkey`}`.execute(db)
  ).rows;
  for (const i of indexes) await sql.raw(`drop index "${i.indexname}"`).execute(db);
  await sql
    .raw(
      `insert into ${table} (${cols.map((c) => `"${c.column_name}"`).join(', ')}, create_time)
     select ${exprs.join(', ')}, timestamp '2026-01-01' + (g || ' minutes')::interval from generate_series(1, ${rows}) g`,
    )
    .execute(db);
  for (const i of indexes) await sql.raw(i.indexdef).execute(db);
}
// As after a restore, and as autovacuum leaves a table on PostgreSQL: statistics, and the visibility map
// that lets a count read only an index.
await sql.raw(`vacuum analyze ${table}`).execute(db);
process.stdout.write(
  `${JSON.stringify({
    url: server.url,
    kind: server.database.kind,
    insertMs: Date.now() - t0,
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
    // Outside the heap: buffers (cached list bodies among them).
    'buffers MB': Math.round(memory.arrayBuffers / 2 ** 20),
    // The whole process as the machine sees it (the young generation's room is in it, not in the heap figure).
    'resident MB': Math.round(memory.rss / 2 ** 20),
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
      );
  }
  slowest.clear();
  process.stdout.write(`${JSON.stringify({ stats, gauges, dbTimes: Object.fromEntries(dbTimes), cpuMs: processCpuMs() })}\n`);
});
process.on('SIGTERM', async () => {
  await server.close();
  await dropDatabase();
  process.exit(0);
});
