import { type Kysely, sql } from 'kysely';

// A company is the root of its own tenancy: it owns its departments (sys_dept.company_id) and may own
// roles (sys_role.company_id); a department or role without a company is the platform's own.
//
// Before this, companies shared departments (every producer sat in 产废企业部), so 本部门 reached other
// companies and a leave message to a department was read by every company in it. Each company whose
// users or records sit in a shared department gets its own copy of it; its users, the department its
// records were created in, the departments chosen on 自定义 roles and the leave messages addressed to it
// follow the copy. A leave message addressed to a shared department by a company that has no copy of it
// goes to the one copy there is, or, when several companies have one, stays where it was and is listed
// in the log for an administrator to readdress.

type Db = Kysely<unknown>;

interface Pair {
  company: number;
  dept: number;
}

const LEAVE_MESSAGE_COMPONENT = 'leaveMessage';
const RECIPIENT_COLUMN = 'deptId';

async function lowCodeTables(db: Db): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and c.relname ~ '^lc_view_[0-9]+$'
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'create_dept' and not a.attisdropped)
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'create_company' and not a.attisdropped)
    order by 1`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Tables of leave-message views that have the recipient column. */
async function recipientTables(db: Db): Promise<string[]> {
  const defs = await sql<{ id: number; dis_menu: string | null }>`select id, dis_menu from lc_generation order by id`.execute(db);
  const out: string[] = [];
  for (const d of defs.rows) {
    let component: unknown;
    try {
      component = (JSON.parse(d.dis_menu ?? 'null') as { componentName?: unknown } | null)?.componentName;
    } catch {
      continue;
    }
    if (component !== LEAVE_MESSAGE_COMPONENT) continue;
    const table = `lc_view_${d.id}`;
    const has = await sql<{ n: number }>`
      select count(*)::int as n from pg_attribute a join pg_class c on c.oid = a.attrelid
      join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = current_schema() and c.relname = ${table} and a.attname = ${RECIPIENT_COLUMN} and not a.attisdropped`.execute(db);
    if (has.rows[0]?.n) out.push(table);
  }
  return out;
}

export async function up(db: Db): Promise<void> {
  await sql`alter table sys_dept add column if not exists company_id integer references company(id)`.execute(db);
  await sql`alter table sys_role add column if not exists company_id integer references company(id)`.execute(db);
  await sql`create index if not exists sys_dept_company on sys_dept (company_id)`.execute(db);
  await sql`create index if not exists sys_role_company on sys_role (company_id)`.execute(db);
  // Role names are unique among the platform's roles and within each company.
  await sql`alter table sys_role drop constraint if exists sys_role_name_key`.execute(db);
  await sql`create unique index if not exists sys_role_name_unique on sys_role (coalesce(company_id, 0), name)`.execute(db);

  const tables = await lowCodeTables(db);
  // Every (company, shared department) a company user sits in or a company's record was created in.
  const fromUsers = await sql<Pair>`
    select distinct u.company_id as company, u.dept_id as dept from sys_user u join sys_dept d on d.id = u.dept_id
    where u.company_id is not null and d.company_id is null`.execute(db);
  const pairs = new Map<string, Pair>();
  for (const p of fromUsers.rows) pairs.set(`${p.company}:${p.dept}`, p);
  for (const t of tables) {
    const rows = await sql<Pair>`
      select distinct r.create_company::int as company, r.create_dept::int as dept from ${sql.table(t)} r
      join sys_dept d on d.id = r.create_dept join company c on c.id = r.create_company
      where d.company_id is null`.execute(db);
    for (const p of rows.rows) pairs.set(`${p.company}:${p.dept}`, p);
  }
  if (!pairs.size) return;

  const companies = new Map(
    (await sql<{ id: number; name: string }>`select id, name from company`.execute(db)).rows.map((c) => [c.id, c.name] as const),
  );
  const depts = new Map(
    (await sql<{ id: number; name: string; sort: number }>`select id, name, sort from sys_dept`.execute(db)).rows.map(
      (d) => [d.id, d] as const,
    ),
  );
  const perCompany = new Map<number, number>();
  for (const p of pairs.values()) perCompany.set(p.company, (perCompany.get(p.company) ?? 0) + 1);

  /** copy id by `${company}:${dept}` */
  const copies = new Map<string, number>();
  for (const [key, p] of [...pairs].sort(([a], [b]) => a.localeCompare(b))) {
    const company = companies.get(p.company) ?? `企业 ${p.company}`;
    const dept = depts.get(p.dept);
    // A company with one shared department gets a department named after itself; with several, each copy
    // keeps the department's name after the company's.
    const name = (perCompany.get(p.company) ?? 0) > 1 ? `${company} ${dept?.name ?? ''}`.trim() : company;
    const made = await sql<{ id: number }>`
      insert into sys_dept (pid, name, code, sort, enabled, company_id)
      values (null, ${name.slice(0, 255)}, null, ${dept?.sort ?? 999}, true, ${p.company}) returning id`.execute(db);
    copies.set(key, made.rows[0]!.id);
  }

  for (const [key, copy] of copies) {
    const [company, dept] = key.split(':').map(Number) as [number, number];
    await sql`update sys_user set dept_id = ${copy} where company_id = ${company} and dept_id = ${dept}`.execute(db);
    for (const t of tables)
      await sql`update ${sql.table(t)} set create_dept = ${copy} where create_company = ${company} and create_dept = ${dept}`.execute(db);
    // A platform role of 自定义 that chose the shared department keeps seeing what was created in it.
    await sql`insert into sys_roles_depts (role_id, dept_id)
      select role_id, ${copy} from sys_roles_depts where dept_id = ${dept} on conflict do nothing`.execute(db);
  }

  const copiesOf = new Map<number, number[]>();
  for (const [key, copy] of copies) {
    const dept = Number(key.split(':')[1]);
    copiesOf.set(dept, [...(copiesOf.get(dept) ?? []), copy]);
  }
  const unsettled: string[] = [];
  for (const t of await recipientTables(db)) {
    const col = sql.ref(RECIPIENT_COLUMN);
    const rows = await sql<{ id: number; dept: number; company: number | null }>`
      select id, ${col}::int as dept, create_company::int as company from ${sql.table(t)}
      where ${col}::text ~ '^[0-9]+$' and ${col}::bigint = any(${[...copiesOf.keys()]}::int[])`.execute(db);
    for (const r of rows.rows) {
      const own = r.company === null ? undefined : copies.get(`${r.company}:${r.dept}`);
      const all = copiesOf.get(r.dept) ?? [];
      const to = own ?? (all.length === 1 ? all[0] : undefined);
      if (to === undefined) {
        unsettled.push(`${t}#${r.id}`);
        continue;
      }
      await sql`update ${sql.table(t)} set ${col} = ${to} where id = ${r.id}`.execute(db);
    }
  }
  console.warn(
    `company tenancy: ${copies.size} company departments made from shared ones (${[...copiesOf.keys()].join(', ')})` +
      (unsettled.length
        ? `; leave messages addressed to a shared department several companies had, left as they were: ${unsettled.join(', ')}`
        : ''),
  );
}

export async function down(db: Db): Promise<void> {
  await sql`drop index if exists sys_role_name_unique`.execute(db);
  await sql`alter table sys_role drop column if exists company_id`.execute(db);
  await sql`alter table sys_dept drop column if exists company_id`.execute(db);
}
