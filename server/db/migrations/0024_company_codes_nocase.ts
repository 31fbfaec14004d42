import { type Kysely, sql } from 'kysely';

// Company codes are compared without case wherever they are looked up (the filling-system token is
// found by any of them), so two companies must not hold codes that differ only in case. The unique
// indexes of 0010 become indexes on the lower-cased code, under the same names. A database holding
// codes that differ only in case is not changed silently: the migration stops and names them, to be
// settled by hand.
const CODES = [
  { column: 'credit_code', index: 'company_credit_code_unique', label: '统一社会信用代码' },
  { column: 'bci_id', index: 'company_bci_id_unique', label: '企业编号（bciId）' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { column, label } of CODES) {
    const dup = await sql<{ codes: string; ids: string }>`
      select string_agg(distinct ${sql.ref(column)}, '、') as codes, string_agg(id::text, ',' order by id) as ids
      from company
      where ${sql.ref(column)} is not null and ${sql.ref(column)} <> ''
      group by lower(${sql.ref(column)})
      having count(*) > 1
      order by 1
    `.execute(db);
    if (dup.rows.length) {
      const list = dup.rows.map((r) => `${r.codes}（企业 ${r.ids}）`).join('；');
      throw new Error(`company.${column}: 以下${label}仅大小写不同，被多家企业使用，请先更正后再升级：${list}`);
    }
  }
  for (const { column, index } of CODES) {
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
    await sql`
      create unique index ${sql.id(index)} on company (lower(${sql.ref(column)}))
      where ${sql.ref(column)} is not null and ${sql.ref(column)} <> ''
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { column, index } of CODES) {
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
    await sql`
      create unique index ${sql.id(index)} on company (${sql.ref(column)})
      where ${sql.ref(column)} is not null and ${sql.ref(column)} <> ''
    `.execute(db);
  }
}
