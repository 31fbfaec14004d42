import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// A view table made before records knew their owner gets the owner columns, filled from createBy.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

it('adds create_company and create_dept to older view tables and fills them from the creator', async () => {
  const db = server.ctx.db;
  const migration = migrations['0011_data_scope'];
  if (!migration) throw new Error('migration 0011_data_scope is not registered');
  await sql`create table lc_view_777 (
    id bigserial primary key,
    create_time timestamp not null default now(),
    update_time timestamp not null default now(),
    create_by varchar(100),
    title varchar(255)
  )`.execute(db);
  await sql`insert into lc_view_777 (create_by, title) values ('producer', 'a'), ('collector', 'b'), ('someone-gone', 'c'), (null, 'd')`.execute(
    db,
  );
  await sql`update sys_role set data_scope = '本级' where id = 3`.execute(db);

  await migration.up(db as unknown as Kysely<unknown>);

  const users = await db
    .selectFrom('sys_user')
    .select(['username', 'company_id', 'dept_id'])
    .where('username', 'in', ['producer', 'collector'])
    .execute();
  const of = (name: string) => users.find((u) => u.username === name);
  const rows = await sql<{ title: string; create_company: number | null; create_dept: number | null }>`
    select title, create_company, create_dept from lc_view_777 order by title`.execute(db);
  expect(rows.rows).toEqual([
    { title: 'a', create_company: of('producer')?.company_id, create_dept: of('producer')?.dept_id },
    { title: 'b', create_company: of('collector')?.company_id, create_dept: of('collector')?.dept_id },
    { title: 'c', create_company: null, create_dept: null },
    { title: 'd', create_company: null, create_dept: null },
  ]);
  // A scope the roles no longer know becomes the company's own.
  expect((await db.selectFrom('sys_role').select('data_scope').where('id', '=', 3).executeTakeFirstOrThrow()).data_scope).toBe('本企业');
});

it('gives older view tables create_user, the author account holding each createBy, and stops at a field in its way', async () => {
  const db = server.ctx.db;
  const migration = migrations['0037_author_accounts'];
  if (!migration) throw new Error('migration 0037_author_accounts is not registered');
  await sql`create table lc_view_778 (
    id bigserial primary key,
    create_time timestamp not null default now(),
    update_time timestamp not null default now(),
    create_by varchar(100),
    create_company bigint,
    create_dept bigint,
    title varchar(255)
  )`.execute(db);
  await sql`insert into lc_view_778 (create_by, title) values ('producer', 'a'), ('collector', 'b'), ('someone-gone', 'c'), (null, 'd')`.execute(
    db,
  );
  const ids = new Map(
    (await db.selectFrom('sys_user').select(['id', 'username']).where('username', 'in', ['producer', 'collector']).execute()).map((u) => [
      u.username,
      u.id,
    ]),
  );
  await migration.up(db as unknown as Kysely<unknown>);
  const rows = await sql<{ title: string; create_user: string | null }>`select title, create_user from lc_view_778 order by title`.execute(
    db,
  );
  expect(rows.rows.map((r) => [r.title, r.create_user === null ? null : Number(r.create_user)])).toEqual([
    ['a', ids.get('producer')],
    ['b', ids.get('collector')],
    ['c', null],
    ['d', null],
  ]);
  // Running it again changes nothing.
  await migration.up(db as unknown as Kysely<unknown>);
  expect((await sql`select title, create_user from lc_view_778 order by title`.execute(db)).rows).toEqual(rows.rows);

  const declared = await sql<{ id: number }>`insert into lc_generation (name, status, dis_template)
    values ('旧视图', 0, ${JSON.stringify({ tableOption: [{ name: 'create_user', label: '创建人' }] })}) returning id`.execute(db);
  await expect(migration.up(db as unknown as Kysely<unknown>)).rejects.toThrow(
    `lc_generation ${declared.rows[0]?.id} (旧视图): a field named create_user is in the way of the system column that now holds each record's author; rename the field in its definition and upgrade again`,
  );
});

it('gives each stored file the company its uploader is in at the upgrade, once', async () => {
  const db = server.ctx.db;
  const migration = migrations['0038_file_company'];
  if (!migration) throw new Error('migration 0038_file_company is not registered');
  const producer = await db
    .selectFrom('sys_user')
    .select(['id', 'company_id'])
    .where('username', '=', 'producer')
    .executeTakeFirstOrThrow();
  const rows = await db
    .insertInto('file_record')
    .values([
      {
        file_path: '2020/01/aaaaaaaaaaaaaaaaaaaaaaaa.pdf',
        file_name: 'a.pdf',
        content_type: 'application/pdf',
        size: 1,
        user_id: producer.id,
        company_id: null,
      },
      {
        file_path: '2020/01/bbbbbbbbbbbbbbbbbbbbbbbb.pdf',
        file_name: 'b.pdf',
        content_type: 'application/pdf',
        size: 1,
        user_id: null,
        company_id: null,
      },
      {
        file_path: '2020/01/cccccccccccccccccccccccc.pdf',
        file_name: 'c.pdf',
        content_type: 'application/pdf',
        size: 1,
        user_id: producer.id,
        company_id: 999,
      },
    ])
    .returning(['id', 'file_path'])
    .execute();
  await migration.up(db as unknown as Kysely<unknown>);
  const after = await db
    .selectFrom('file_record')
    .select(['file_name', 'company_id'])
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('file_name')
    .execute();
  expect(after.map((r) => [r.file_name, r.company_id === null ? null : Number(r.company_id)])).toEqual([
    ['a.pdf', producer.company_id],
    ['b.pdf', null],
    ['c.pdf', 999],
  ]);
});
