import { sql, type Transaction } from 'kysely';
import { buildSchema } from '../../src/model/index.js';
import type { DB } from '../db/schema.js';
import { serverPatterns } from '../lib/bounded-pattern.js';
import { syncEntityViews } from '../lib/entity-views.js';
import { syncViewTable } from '../lowcode/ddl.js';
import { recordValues } from '../lowcode/record-input.js';
import { insertRows } from '../lowcode/rows.js';
import { readView, type ViewModel } from '../lowcode/view-model.js';
import { screenMenuId, viewMenuId } from './ids.js';
import { DATA_VIEWS, SCREEN_SEEDS, UNDESIGNED_VIEW, VIEW_SEEDS } from './lowcode-definitions.js';
import { type Planned, planRecords, timeText } from './records.js';

/**
 * Low-code seed: view definitions with their tables and rows, data views and screens. Definitions are
 * read by the page model and rows go through the same validation as /api/general/add, so the seed
 * cannot drift from its own definitions. The seed also fills the read-only (show 3) fields, which the
 * back end sets, by the same rules as the editable ones. The rows are the companies' own business
 * (records.ts), inserted with their owners.
 */

/** Inserts a view's planned records in their order, each run of records with one owner in one batch. */
async function fill(trx: Transaction<DB>, view: ViewModel, planned: Planned[], ids: Map<Planned, number>): Promise<void> {
  const form = view.page.form;
  const schema = buildSchema(
    { ...form, fields: form.fields.map((f) => (f.show === 3 && !f.system ? { ...f, show: 1 } : f)) },
    serverPatterns,
  );
  for (let i = 0; i < planned.length; ) {
    const owner = planned[i]!.owner;
    let j = i;
    while (j < planned.length && planned[j]!.owner === owner) j++;
    const run = planned.slice(i, j);
    const rows = run.map((p) => ({
      ...recordValues(view, p.fields(), undefined, schema),
      create_time: timeText(p.at),
      update_time: timeText(p.at),
    }));
    const inserted = await insertRows(trx, view, rows, owner);
    for (const [k, p] of run.entries()) ids.set(p, inserted[k] as number);
    i = j;
  }
}

async function bumpSequence(trx: Transaction<DB>, table: 'lc_generation' | 'lc_screen' | 'lc_data_view') {
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(trx);
}

/**
 * Definitions carry their create/update times on the wire; fixed ones make a pull of a freshly seeded
 * server reproduce the committed definitions/ byte for byte (tests/server/cli-roundtrip.test.ts).
 */
const DESIGNED_AT = { create_time: '2026-01-05 09:00:00', update_time: '2026-01-05 09:00:00' };

export async function seedLowcode(trx: Transaction<DB>): Promise<void> {
  const views = new Map<number, ViewModel>();
  for (const v of VIEW_SEEDS) {
    const disMenu = JSON.stringify({ componentName: v.componentName, name: v.title });
    const disTemplate = JSON.stringify(v.template);
    const row = await trx
      .insertInto('lc_generation')
      .values({
        id: v.id,
        name: v.title,
        menu_id: viewMenuId(v.id),
        status: v.status,
        dis_menu: disMenu,
        dis_template: disTemplate,
        ...DESIGNED_AT,
      })
      .returning(['id', 'name', 'status', 'dis_menu', 'dis_template'])
      .executeTakeFirstOrThrow();
    const def = readView(row);
    if (!def) throw new Error(`seeded view ${v.id} is not designed`);
    await syncViewTable(trx, def);
    views.set(v.id, def);
  }
  await trx
    .insertInto('lc_generation')
    .values({
      id: UNDESIGNED_VIEW.id,
      name: UNDESIGNED_VIEW.title,
      menu_id: null,
      status: 0,
      dis_menu: JSON.stringify({ componentName: UNDESIGNED_VIEW.componentName, name: UNDESIGNED_VIEW.title }),
      dis_template: null,
      ...DESIGNED_AT,
    })
    .execute();
  await bumpSequence(trx, 'lc_generation');

  // Business records, owned by their companies (records.ts), then the SQL views over the warehouses and contracts.
  const plan = await planRecords(trx);
  for (const name of plan.order) {
    const v = VIEW_SEEDS.find((x) => x.componentName === name);
    const view = v && views.get(v.id);
    if (!view) throw new Error(`no seeded view ${name}`);
    await fill(trx, view, plan.records.get(name) ?? [], plan.ids);
  }
  await syncEntityViews(trx);

  await trx.insertInto('lc_data_view').values(DATA_VIEWS).execute();
  await bumpSequence(trx, 'lc_data_view');

  await trx
    .insertInto('lc_screen')
    .values(
      SCREEN_SEEDS.map((s) => ({
        id: s.id,
        name: s.title,
        menu_id: s.inMenu ? screenMenuId(s.id) : null,
        status: s.status,
        type: s.type,
        dis_menu: JSON.stringify({ name: s.title, componentName: `vBuild${s.id}` }),
        dis_template: s.template ? JSON.stringify(s.template) : null,
        ...DESIGNED_AT,
      })),
    )
    .execute();
  await bumpSequence(trx, 'lc_screen');
}
