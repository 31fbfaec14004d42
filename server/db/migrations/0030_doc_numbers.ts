import { type Kysely, sql } from 'kysely';

// The last serial handed out for each generated document number's day (入库单号 RK + date + serial and
// its kind), by view, field and prefix with the date: taking the next ones is one upsert, which waits
// for any other taker of the same day, so no two records get one number.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table doc_number (
      name varchar(160) primary key,
      last integer not null
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists doc_number`.execute(db);
}
