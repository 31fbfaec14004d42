import { type Kysely, sql } from 'kysely';
import { syncViewTable } from '../../lowcode/ddl.js';
import type { DB } from '../schema.js';
import { parsedViews } from './parsed-views.js';

// A disposal inquiry names the stock-in it is raised from (来源入库单, stockId), so the dashboard counts
// its waste as 询价中 in that stock's warehouse. Every inquiry view (componentName disposalInquiry) gets
// the field before 危废类别, where its 危废信息 section now starts, and its table the column; every
// stock-in view gets the row button 发起询价 that opens the inquiries of a row. Inquiries made before
// name no stock: which one they were about is not known, so they count in the all-warehouse total only.
// A view that already has the field or the button keeps its own.

type Json = Record<string, unknown>;
interface Definition {
  id: number;
  name: string;
  status: number;
  dis_menu: string | null;
  dis_template: string | null;
}

const FIELD = 'stockId';
const BEFORE = 'wasteCategory';
const BUTTON = 'inquire';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const parse = (text: string | null): Json | null => {
  try {
    const v = JSON.parse(text ?? 'null') as unknown;
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
};

const componentOf = (d: Definition) => {
  const name = parse(d.dis_menu)?.componentName;
  return typeof name === 'string' ? name : undefined;
};

/** The definition of a componentName the business calls use: a published one first, then the lowest id. */
const pick = (defs: Definition[], name: string) => {
  const named = defs.filter((d) => componentOf(d) === name);
  return named.find((d) => d.status === 1) ?? named[0];
};

/** The field list of tableOption or formOption: `{items: [...]}` or the list itself; null when neither. */
function itemsOf(template: Json, key: 'tableOption' | 'formOption'): unknown[] | null {
  const option = template[key];
  if (Array.isArray(option)) return option;
  if (isObject(option) && Array.isArray(option.items)) return option.items;
  return null;
}

const nameOf = (item: unknown) => (isObject(item) ? item.name : undefined);
const sortOf = (item: unknown) => {
  const c = isObject(item) && isObject(item.configure) ? item.configure : undefined;
  const n = Number(c?.sort);
  return c && c.sort !== '' && Number.isFinite(n) ? n : undefined;
};

/** Puts the field before 危废类别 (at the end without one), taking its sort and moving the later ones down. */
function insertField(items: unknown[], configure: Json): void {
  const at = items.findIndex((i) => nameOf(i) === BEFORE);
  const sort = at >= 0 ? sortOf(items[at]) : undefined;
  const last = Math.max(0, ...items.map(sortOf).filter((n): n is number => n !== undefined));
  if (sort !== undefined)
    for (const item of items) {
      const s = sortOf(item);
      if (s !== undefined && s >= sort) ((item as Json).configure as Json).sort = s + 1;
    }
  const field = { name: FIELD, chName: '来源入库单', dataType: 'long', linked: false, configure: { sort: sort ?? last + 1, ...configure } };
  items.splice(at >= 0 ? at : items.length, 0, field);
}

function withField(template: Json, stockViewId: number): boolean {
  const options = { sportData: true, sportData_type: 'list', sportData_url: `/api/general/allList/${stockViewId}/queryLink` };
  let changed = false;
  const table = itemsOf(template, 'tableOption');
  if (table && !table.some((i) => nameOf(i) === FIELD)) {
    insertField(table, { show: true, ...options, width: 170 });
    changed = true;
  }
  const form = itemsOf(template, 'formOption');
  if (form && !form.some((i) => nameOf(i) === FIELD)) {
    insertField(form, { show: 1, ...options });
    changed = true;
    // The section that started at 危废类别 starts at the field now before it.
    const dividers = template.formDividerOption;
    if (Array.isArray(dividers)) for (const d of dividers) if (isObject(d) && d.position === BEFORE) d.position = FIELD;
  }
  return changed;
}

function withButton(template: Json): boolean {
  const buttons = template.btnDIYOption;
  if (!Array.isArray(buttons) || buttons.some((b) => nameOf(b) === BUTTON)) return false;
  const last = Math.max(0, ...buttons.map(sortOf).filter((n): n is number => n !== undefined));
  buttons.push({
    name: BUTTON,
    chName: '发起询价',
    configure: {
      position: 'opt',
      action: 'groovy',
      groovyAction: 'createDisposalInquiry',
      confirm: false,
      root: ['admin', 'disposalInquiry:add'],
      showRelation_item: 'status',
      showRelation_value: '1',
      sort: last + 1,
    },
  });
  return true;
}

async function save(db: Kysely<unknown>, d: Definition, template: Json): Promise<void> {
  const text = JSON.stringify(template);
  await sql`update lc_generation set dis_template = ${text}, version = version + 1, update_time = now() where id = ${d.id}`.execute(db);
  d.dis_template = text;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const defs = (
    await sql<Definition>`select id, name, coalesce(status, 0) as status, dis_menu, dis_template
      from lc_generation where dis_template is not null order by id`.execute(db)
  ).rows;
  const stock = pick(defs, 'stockIn');
  if (!stock) return;
  for (const d of defs) {
    const template = parse(d.dis_template);
    if (!template) continue;
    if (componentOf(d) === 'disposalInquiry' && withField(template, stock.id)) {
      await save(db, d, template);
      for (const view of parsedViews([d])) await syncViewTable(db as Kysely<DB>, view);
    }
    if (componentOf(d) === 'stockIn' && withButton(template)) await save(db, d, template);
  }
}

// The field and the button stay: inquiries that name their stock keep it.
export async function down(): Promise<void> {}
