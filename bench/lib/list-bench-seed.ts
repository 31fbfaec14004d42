// The mixed list bench's data, seeded with set-based statements (one `insert … select … from
// generate_series` per table, never a row at a time), so that millions of rows load in minutes.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { hashPassword } from '../../server/auth.js';

/** The bench account of a company: one per company, of the producer role (data scope 本企业). */
export const benchUser = (companyId: number) => `bench${companyId}`;

/** The bench's password for every account. */
export const BENCH_PASSWORD = 'Waste@2026';

/** What the bench seeds: rows of one view spread over the first `companies` companies. */
export interface BenchSize {
  rows: number;
  companies: number;
  viewId: number;
}

/** Seeded rows are one minute apart from this time on, the first at +1 minute. */
export const FIRST_TIME = '2026-01-01';

/**
 * Runs `load` into the table as a restore loads: the table's indexes (but its primary key) are dropped
 * first and built again once the rows are in, much faster than growing them row by row.
 */
export async function withoutIndexes(db: Kysely<any>, table: string, load: () => Promise<unknown>): Promise<void> {
  const indexes = (
    await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where tablename = ${table} and indexname <> ${`${table}_pkey`}`.execute(db)
  ).rows;
  for (const i of indexes) await sql.raw(`drop index "${i.indexname}"`).execute(db);
  await load();
  for (const i of indexes) await sql.raw(i.indexdef).execute(db);
}

/** The files that decide what a seeded database holds: the schema, the demo seed and this seeding. */
const SEED_SOURCES = ['server/db', 'server/seed', 'server/lowcode/ddl.ts', 'bench/lib/list-bench-seed.ts'];

/** A short hash of the seeding's sources: a template seeded from other sources is not reused. */
export function seedHash(root = process.cwd()): string {
  const h = createHash('sha256');
  const walk = (path: string) => {
    const full = join(root, path);
    if (statSync(full).isDirectory()) {
      for (const f of readdirSync(full).sort()) walk(join(path, f));
    } else {
      h.update(path);
      h.update(readFileSync(full));
    }
  };
  for (const s of SEED_SOURCES) walk(s);
  return h.digest('hex').slice(0, 10);
}

/** The first `n` companies by id: the bench's companies. */
const benchCompanies = (n: number) => sql`(select id from company order by id limit ${n})`;

/**
 * Seeds a migrated, demo-seeded database with the bench's data: `companies` companies (made up past the
 * seeded ones), each with its own department, bench account and warehouse, and `rows` rows of the view
 * spread over them in turn, one minute apart. Returns how long the rows and their indexes took, ms.
 */
export async function seedBench(db: Kysely<any>, { rows, companies, viewId }: BenchSize): Promise<number> {
  const table = `lc_view_${viewId}`;
  const have = Number((await sql<{ n: number }>`select count(*)::int as n from company`.execute(db)).rows[0]?.n ?? 0);
  if (have < companies) {
    // Producers like the demo's, named by number; no credit code or filling-system id (both unique when set).
    await sql`insert into company (name, type, region, region_fmt, address, status)
      select '压测企业' || g, '1', '320000,320500,320505', '江苏省/苏州市/虎丘区', '苏州市虎丘区压测路' || g || '号', 1
      from generate_series(${have + 1}::int, ${companies}::int) g`.execute(db);
  }
  // Each company is its own tenancy: its account sits in a department of its own.
  await sql`insert into sys_dept (name, sort, company_id)
    select c.name, 999, c.id from company c
    where c.id in ${benchCompanies(companies)} and not exists (select 1 from sys_dept d where d.company_id = c.id)`.execute(db);
  const role = (await db.selectFrom('sys_role').select('id').where('name', '=', '产废企业').executeTakeFirstOrThrow()).id;
  const password = await hashPassword(BENCH_PASSWORD);
  await sql`insert into sys_user (username, nick_name, password, company_id, dept_id, pwd_reset_time)
    select 'bench' || c.id, '压测' || c.id, ${password}, c.id, (select min(d.id) from sys_dept d where d.company_id = c.id), now()
    from company c where c.id in ${benchCompanies(companies)} order by c.id`.execute(db);
  await sql`insert into sys_users_roles (user_id, role_id)
    select u.id, ${role}::int from sys_user u where u.company_id in ${benchCompanies(companies)} and u.username = 'bench' || u.company_id`.execute(
    db,
  );
  // Seeded rows of companies without accounts name no creator: the bench account of their company takes
  // them, so that every row's createBy tells its company.
  await sql`update ${sql.table(table)} as t set create_by = u.username, create_user = u.id from sys_user u
    where t.create_by is null and t.create_company in ${benchCompanies(companies)} and u.username = 'bench' || t.create_company`.execute(
    db,
  );
  // Every bench company has a warehouse for its records to name: a record may pick only its own company's.
  await sql`insert into lc_view_14 ("name", create_company, create_dept, create_by, create_user)
    select '压测仓库' || u.company_id, u.company_id, u.dept_id, u.username, u.id from sys_user u
    where u.company_id in ${benchCompanies(companies)} and u.username = 'bench' || u.company_id
      and not exists (select 1 from company_warehouse w where w.company_id = u.company_id)
    order by u.company_id`.execute(db);

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
  // Row g belongs to the bench account number g mod companies (in company order): o's arrays are worked
  // out once, and the rows come in g's order, so ids follow the times and every company's rows are spread
  // over the whole table.
  const owner: Record<string, string> = {
    create_by: `o.names[1 + g % o.n]`,
    create_user: `o.users[1 + g % o.n]::bigint`,
    create_company: `o.companies[1 + g % o.n]`,
    create_dept: `o.depts[1 + g % o.n]::bigint`,
  };
  const exprs: string[] = [];
  for (const c of cols) {
    const dict = dictOf.get(c.column_name);
    if (owner[c.column_name]) exprs.push(owner[c.column_name] as string);
    else if (dict) {
      const values = (
        await sql<{
          value: string;
        }>`select d.value from sys_dict_detail d join sys_dict s on s.id = d.dict_id where s.name = ${dict} order by d.sort, d.id`.execute(
          db,
        )
      ).rows.map((r) => r.value.replace(/'/g, "''"));
      exprs.push(values.length ? `(array[${values.map((v) => `'${v}'`).join(',')}])[1 + g % ${values.length}]` : `'v' || (g % 7)`);
    } else if (/int/.test(c.data_type)) exprs.push('g % 1000');
    else if (/numeric|double|real/.test(c.data_type)) exprs.push('round((g % 997) * 1.137, 3)');
    else if (/timestamp|date/.test(c.data_type)) exprs.push(`timestamp '${FIRST_TIME}' + (g || ' minutes')::interval`);
    else exprs.push(`'记录' || g`);
  }
  const t0 = Date.now();
  await withoutIndexes(db, table, () =>
    sql
      .raw(
        `insert into ${table} (${cols.map((c) => `"${c.column_name}"`).join(', ')}, create_time)
       select ${exprs.join(', ')}, timestamp '${FIRST_TIME}' + (g || ' minutes')::interval
       from (select array_agg(u.username order by u.company_id) as names, array_agg(u.id order by u.company_id) as users,
                    array_agg(u.company_id order by u.company_id) as companies,
                    array_agg(u.dept_id order by u.company_id) as depts, count(*)::int as n
             from sys_user u
             where u.company_id in (select id from company order by id limit ${companies}) and u.username = 'bench' || u.company_id) o,
            generate_series(1, ${rows}) g`,
      )
      .execute(db),
  );
  return Date.now() - t0;
}
