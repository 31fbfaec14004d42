import { type Kysely, sql } from 'kysely';
import { syncEntityViews } from '../../lib/entity-views.js';
import { syncViewTable } from '../../lowcode/ddl.js';
import type { DB } from '../schema.js';
import { parsedViews } from './parsed-views.js';

// Contracts and disposal orders name their parties by company id, no longer by name: 甲方 and 乙方 of a
// contract (partyA, partyB → partyAId, partyBId) and the producer and disposer of a disposal order
// (producerName, disposerName → producerId, disposerId) become company pickers, and a disposal order
// gets 运输单位 (carrierId), the logistics company that carries it. Every view of those componentNames
// is converted: its fields pick companies of their fixed types, its table gets the id columns, and each
// record's text is matched to a company by its exact name (trimmed), else by its name without case and
// spaces when one company alone has it. A text no company matches leaves the id empty; the record is
// listed in the log and kept in party_unmatched (view, record, field, text) for an administrator to
// pick the company. The text columns stay in the table, as columns always do (ddl.ts).

type Json = Record<string, unknown>;

interface Definition {
  id: number;
  name: string;
  status: number;
  dis_menu: string | null;
  dis_template: string | null;
}

/** A text party field and the company picker that replaces it. */
interface Conversion {
  from: string;
  to: string;
  /** companyType values the picker offers, joined by commas */
  types: string;
}

/** Producers are producing companies, collection points, or disposers handing on their own residues. */
const PRODUCERS = '1,2,4';
const DISPOSERS = '2';
const CARRIERS = '3';

const CONVERSIONS: Record<string, Conversion[]> = {
  contract: [
    { from: 'partyA', to: 'partyAId', types: PRODUCERS },
    { from: 'partyB', to: 'partyBId', types: DISPOSERS },
  ],
  disposalOrder: [
    { from: 'producerName', to: 'producerId', types: PRODUCERS },
    { from: 'disposerName', to: 'disposerId', types: DISPOSERS },
  ],
};

/** 运输单位 of a disposal order, after its disposer. */
const CARRIER = { name: 'carrierId', chName: '运输单位', after: 'disposerId', types: CARRIERS };

/** Configure keys of a text input that a company picker has no use for. */
const TEXT_ONLY = [
  'dict',
  'city',
  'textarea',
  'editor',
  'rows',
  'file',
  'fileType',
  'fileSize',
  'pattern',
  'validator',
  'minLength',
  'maxLength',
  'sportData_list_multiple',
];

/** The seeded 最新处置订单 data view as it read the producer's name, and as it reads it by id. */
const LATEST_ORDERS_BEFORE = `select "orderNo" as "订单编号", "producerName" as "产废单位", quantity as "数量（吨）", to_char(create_time, 'MM-DD HH24:MI') as "下单时间"
from lc_view_19
order by create_time desc, id desc
limit 20`;
const LATEST_ORDERS_AFTER = `select o."orderNo" as "订单编号", c.name as "产废单位", o.quantity as "数量（吨）", to_char(o.create_time, 'MM-DD HH24:MI') as "下单时间"
from lc_view_19 o
left join company c on c.id = o."producerId"
order by o.create_time desc, o.id desc
limit 20`;

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

/** The field list of tableOption or formOption: `{items: [...]}` or the list itself; null when neither. */
function itemsOf(template: Json, key: 'tableOption' | 'formOption'): Json[] | null {
  const option = template[key];
  const list = Array.isArray(option) ? option : isObject(option) && Array.isArray(option.items) ? option.items : null;
  return list ? (list.filter(isObject) as Json[]) : null;
}

const sortOf = (item: Json) => {
  const c = isObject(item.configure) ? item.configure : undefined;
  const n = Number(c?.sort);
  return c && c.sort !== '' && Number.isFinite(n) ? n : undefined;
};

const picker = (types: string): Json => ({
  sportData: true,
  sportData_type: 'list',
  sportData_url: '/api/company/list',
  sportData_params: [{ key: 'type', type: 1, value: types }],
});

/** A field name where a definition refers to one: a name, a list of names, or names joined by commas. */
function renamed(v: unknown, from: string, to: string): unknown {
  if (v === from) return to;
  if (Array.isArray(v)) return v.map((x) => (x === from ? to : x));
  if (typeof v === 'string' && v.includes(',')) {
    return v
      .split(',')
      .map((x) => (x.trim() === from ? to : x))
      .join(',');
  }
  return v;
}

/** Renames the text field to its picker everywhere the template names it; false when it has no such field. */
function convertField(template: Json, c: Conversion): boolean {
  const lists = [itemsOf(template, 'tableOption'), itemsOf(template, 'formOption')].filter((l): l is Json[] => !!l);
  const all = lists.flat();
  if (!all.some((i) => i.name === c.from) || all.some((i) => i.name === c.to)) return false;
  for (const item of all) {
    const configure = isObject(item.configure) ? item.configure : {};
    if (item.name === c.from) {
      item.name = c.to;
      item.dataType = 'long';
      for (const k of TEXT_ONLY) delete configure[k];
      Object.assign(configure, picker(c.types));
      item.configure = configure;
    }
    for (const key of ['showRelation', 'requiredRelation']) {
      const rel = configure[key];
      if (isObject(rel)) rel.item = renamed(rel.item, c.from, c.to);
    }
    if (Array.isArray(configure.sportData_params)) {
      for (const p of configure.sportData_params) if (isObject(p) && String(p.type) === '2') p.value = renamed(p.value, c.from, c.to);
    }
  }
  const dividers = template.formDividerOption;
  if (Array.isArray(dividers)) for (const d of dividers) if (isObject(d)) d.position = renamed(d.position, c.from, c.to);
  const basic = template.basicOption;
  if (isObject(basic) && basic.sortName === c.from) basic.sortName = c.to;
  const buttons = template.btnDIYOption;
  if (Array.isArray(buttons)) {
    for (const b of buttons) {
      if (isObject(b) && isObject(b.configure)) b.configure.showRelation_item = renamed(b.configure.showRelation_item, c.from, c.to);
    }
  }
  return true;
}

/** Puts 运输单位 after the disposer (at the end without one), taking the next sort and moving the later ones down. */
function insertCarrier(items: Json[], configure: Json): void {
  const at = items.findIndex((i) => i.name === CARRIER.after);
  const after = at >= 0 ? sortOf(items[at] as Json) : undefined;
  const last = Math.max(0, ...items.map(sortOf).filter((n): n is number => n !== undefined));
  const sort = after !== undefined ? after + 1 : last + 1;
  if (after !== undefined) {
    for (const item of items) {
      const s = sortOf(item);
      if (s !== undefined && s >= sort) (item.configure as Json).sort = s + 1;
    }
  }
  const field = { name: CARRIER.name, chName: CARRIER.chName, dataType: 'long', linked: false, configure: { sort, ...configure } };
  items.splice(at >= 0 ? at + 1 : items.length, 0, field);
}

function withCarrier(template: Json): boolean {
  let changed = false;
  const option = (key: 'tableOption' | 'formOption') => {
    const raw = template[key];
    return Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw.items) ? raw.items : null;
  };
  const table = option('tableOption') as Json[] | null;
  if (table && !table.some((i) => isObject(i) && i.name === CARRIER.name)) {
    insertCarrier(table, { show: true, ...picker(CARRIER.types), width: 220, overflow: true });
    changed = true;
  }
  const form = option('formOption') as Json[] | null;
  if (form && !form.some((i) => isObject(i) && i.name === CARRIER.name)) {
    insertCarrier(form, { show: 1, ...picker(CARRIER.types) });
    changed = true;
  }
  return changed;
}

const columnsOf = async (db: Kysely<unknown>, table: string) =>
  new Set(
    (
      await sql<{ name: string }>`select attname as name from pg_attribute
        where attrelid = to_regclass(${table}) and attnum > 0 and not attisdropped`.execute(db)
    ).rows.map((r) => r.name),
  );

/** How a party's text is compared when no company has it exactly: without case and spaces. */
const loose = (s: string) => s.replace(/\s+/g, '').toLowerCase();

/** The company a text names: exactly (trimmed), else loosely when one company alone matches; undefined: none. */
function matcher(companies: { id: number; name: string }[]) {
  const exact = new Map<string, number[]>();
  const looseIds = new Map<string, number[]>();
  for (const c of companies) {
    const name = c.name.trim();
    exact.set(name, [...(exact.get(name) ?? []), c.id]);
    looseIds.set(loose(name), [...(looseIds.get(loose(name)) ?? []), c.id]);
  }
  return (text: string): number | undefined => {
    const byName = exact.get(text.trim()) ?? [];
    if (byName.length) return byName.length === 1 ? byName[0] : undefined;
    const byLoose = looseIds.get(loose(text)) ?? [];
    return byLoose.length === 1 ? byLoose[0] : undefined;
  };
}

interface Unmatched {
  viewId: number;
  title: string;
  recordId: number;
  field: string;
  text: string;
}

/** Fills the id column from the text column of one view's table; answers the records no company matched. */
async function fill(db: Kysely<unknown>, d: Definition, c: Conversion, match: (text: string) => number | undefined): Promise<Unmatched[]> {
  const table = `lc_view_${d.id}`;
  const columns = await columnsOf(db, table);
  if (!columns.has(c.from) || !columns.has(c.to)) return [];
  const texts = await sql<{ text: string }>`select distinct ${sql.ref(c.from)}::text as text from ${sql.table(table)}
    where ${sql.ref(c.to)} is null and nullif(trim(${sql.ref(c.from)}::text), '') is not null order by 1`.execute(db);
  const unmatched: Unmatched[] = [];
  for (const { text } of texts.rows) {
    const id = match(text);
    const rows = sql`${sql.ref(c.to)} is null and ${sql.ref(c.from)}::text = ${text}`;
    if (id !== undefined) {
      await sql`update ${sql.table(table)} set ${sql.ref(c.to)} = ${id} where ${rows}`.execute(db);
      continue;
    }
    const records = await sql<{ id: string | number }>`select id from ${sql.table(table)} where ${rows} order by id`.execute(db);
    for (const r of records.rows) unmatched.push({ viewId: d.id, title: d.name, recordId: Number(r.id), field: c.from, text });
  }
  return unmatched;
}

async function save(db: Kysely<unknown>, d: Definition, template: Json): Promise<void> {
  const text = JSON.stringify(template);
  await sql`update lc_generation set dis_template = ${text}, version = version + 1, update_time = now() where id = ${d.id}`.execute(db);
  d.dis_template = text;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists party_unmatched (
    view_id integer not null,
    record_id bigint not null,
    field varchar(64) not null,
    text text not null,
    create_time timestamp not null default now(),
    primary key (view_id, record_id, field)
  )`.execute(db);
  await sql`update lc_data_view set sql = ${LATEST_ORDERS_AFTER}, update_time = now() where sql = ${LATEST_ORDERS_BEFORE}`.execute(db);

  const defs = (
    await sql<Definition>`select id, name, coalesce(status, 0) as status, dis_menu, dis_template
      from lc_generation where dis_template is not null order by id`.execute(db)
  ).rows;
  const companies = await sql<{ id: number; name: string }>`select id, name from company order by id`.execute(db);
  const match = matcher(companies.rows);
  const unmatched: Unmatched[] = [];
  for (const d of defs) {
    const component = componentOf(d);
    const conversions = component ? CONVERSIONS[component] : undefined;
    const template = parse(d.dis_template);
    if (!conversions || !template) continue;
    let changed = false;
    for (const c of conversions) if (convertField(template, c)) changed = true;
    if (component === 'disposalOrder' && withCarrier(template)) changed = true;
    if (changed) {
      // A definition the page model no longer reads once converted is left as it was, and said so.
      const [view] = parsedViews([{ ...d, dis_template: JSON.stringify(template) }]);
      if (!view) {
        console.warn(`migration 0027: view ${d.id} (${d.name}) does not read with its parties as company pickers; left as it was`);
        continue;
      }
      await save(db, d, template);
      await syncViewTable(db as Kysely<DB>, view);
    }
    for (const c of conversions) unmatched.push(...(await fill(db, d, c, match)));
  }
  for (const u of unmatched) {
    await sql`insert into party_unmatched (view_id, record_id, field, text) values (${u.viewId}, ${u.recordId}, ${u.field}, ${u.text})
      on conflict (view_id, record_id, field) do update set text = excluded.text`.execute(db);
  }
  if (unmatched.length) {
    console.warn(
      `migration 0027: ${unmatched.length} record party names match no company; their companies are to be picked again (kept in party_unmatched):`,
    );
    for (const u of unmatched) console.warn(`  view ${u.viewId} (${u.title}) record ${u.recordId} ${u.field}: ${JSON.stringify(u.text)}`);
  }
  await syncEntityViews(db as Kysely<DB>);
}

// The id columns and the pickers stay: the texts they were matched from are still in their columns.
export async function down(): Promise<void> {}
