import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// An inquiry view designed before inquiries named their stock-in gets 来源入库单 before 危废类别 and its
// table the column; a stock-in view gets the row button 发起询价. A second run changes nothing.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Json = Record<string, any>;

const definition = async (id: number) => {
  const r = await sql<{ dis_template: string; version: number }>`select dis_template, version from lc_generation where id = ${id}`.execute(
    server.ctx.db,
  );
  const row = r.rows[0];
  if (!row) throw new Error(`no definition ${id}`);
  return { template: JSON.parse(row.dis_template) as Json, version: row.version };
};

/** A draft copy of a seeded view as it was designed before: what `strip` leaves of its template. */
async function olderCopy(id: number, from: number, componentName: string, strip: (t: Json) => void) {
  const { template } = await definition(from);
  strip(template);
  await sql`insert into lc_generation (id, name, status, dis_menu, dis_template)
    values (${id}, ${`旧版${componentName}`}, 0, ${JSON.stringify({ componentName, name: '旧版' })}, ${JSON.stringify(template)})`.execute(
    server.ctx.db,
  );
  return template;
}

/** A field list as stored: the list itself or `{items}`. */
const listOf = (t: Json, key: string) => (Array.isArray(t[key]) ? t[key] : t[key].items);
const names = (items: { name: string }[]) => items.map((i) => i.name);
const sorts = (items: { configure: { sort: number } }[]) => items.map((i) => Number(i.configure.sort));

it('adds 来源入库单 to older inquiry views and 发起询价 to older stock-in views, once', async () => {
  const db = server.ctx.db;
  const migration = migrations['0020_inquiry_stock'];
  if (!migration) throw new Error('migration 0020_inquiry_stock is not registered');
  const older = await olderCopy(901, 15, 'disposalInquiry', (t) => {
    for (const list of [listOf(t, 'tableOption'), listOf(t, 'formOption')]) {
      const at = list.findIndex((i: Json) => i.name === 'stockId');
      list.splice(at, 1);
      list.forEach((i: Json, k: number) => {
        i.configure.sort = k + 1;
      });
    }
    for (const d of t.formDividerOption) if (d.position === 'stockId') d.position = 'wasteCategory';
  });
  expect(names(listOf(older, 'formOption'))).not.toContain('stockId');
  await olderCopy(902, 12, 'stockIn', (t) => {
    t.btnDIYOption = t.btnDIYOption.filter((b: Json) => b.name !== 'inquire');
  });
  const seeded = await definition(15);

  await migration.up(db as unknown as Kysely<unknown>);

  const after = await definition(901);
  expect(after.version).toBe(1);
  // The field sits where the seed puts it, with the same configuration, and the sorts stay a sequence.
  for (const key of ['tableOption', 'formOption']) {
    const items = listOf(after.template, key);
    expect(names(items)).toEqual(names(listOf(seeded.template, key)));
    expect(sorts(items)).toEqual(items.map((_: unknown, k: number) => k + 1));
    const field = items.find((i: Json) => i.name === 'stockId');
    expect(field).toEqual(listOf(seeded.template, key).find((i: Json) => i.name === 'stockId'));
  }
  expect(after.template.formDividerOption).toEqual(seeded.template.formDividerOption);
  const column = await sql<{ type: string }>`select format_type(atttypid, atttypmod) as type from pg_attribute
    where attrelid = to_regclass('lc_view_901') and attname = 'stockId' and not attisdropped`.execute(db);
  expect(column.rows).toEqual([{ type: 'bigint' }]);

  const stock = await definition(902);
  expect(stock.version).toBe(1);
  expect(stock.template.btnDIYOption.find((b: Json) => b.name === 'inquire')).toMatchObject({
    chName: '发起询价',
    configure: { action: 'groovy', groovyAction: 'createDisposalInquiry', position: 'opt', showRelation_value: '1' },
  });

  // The seeded views already have both, and a second run finds nothing to do.
  await migration.up(db as unknown as Kysely<unknown>);
  expect((await definition(901)).version).toBe(1);
  expect((await definition(902)).version).toBe(1);
  expect((await definition(15)).version).toBe(seeded.version);
  expect((await definition(12)).template.btnDIYOption.filter((b: Json) => b.name === 'inquire')).toHaveLength(1);
});
