import { type Kysely, sql } from 'kysely';

// A company's credit code and its filling-system id (bci_id) name that company alone: the filling
// system's token is issued for them. Empty values are not codes and may repeat. A database holding
// duplicates is not changed silently: the migration stops and names them, to be settled by hand.
const CODES = [
  { column: 'credit_code', index: 'company_credit_code_unique', label: '统一社会信用代码' },
  { column: 'bci_id', index: 'company_bci_id_unique', label: '企业编号（bciId）' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { column, index, label } of CODES) {
    const dup = await sql<{ code: string; ids: string }>`
      select ${sql.ref(column)} as code, string_agg(id::text, ',' order by id) as ids
      from company
      where ${sql.ref(column)} is not null and ${sql.ref(column)} <> ''
      group by ${sql.ref(column)}
      having count(*) > 1
      order by 1
    `.execute(db);
    if (dup.rows.length) {
      const list = dup.rows.map((r) => `${r.code}（企业 ${r.ids}）`).join('；');
      throw new Error(`company.${column}: 以下${label}被多家企业使用，请先更正后再升级：${list}`);
    }
    await sql`
      create unique index ${sql.id(index)} on company (${sql.ref(column)})
      where ${sql.ref(column)} is not null and ${sql.ref(column)} <> ''
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { index } of CODES) await sql`drop index if exists ${sql.id(index)}`.execute(db);
}
