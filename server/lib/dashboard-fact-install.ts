import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { designedView } from '../lowcode/view-store.js';
import { type BusinessViewName, businessViews } from './business-views.js';
import { addFactsSql, type FactTables, functionsSql, SPECS, TRIGGERS, triggerName, triggersSql } from './dashboard-fact-triggers.js';
import { FACT_SOURCES, type FactSource } from './dashboard-facts.js';

/**
 * Installs the facts' triggers: each source's trigger functions and triggers on the table its view
 * resolves to, and its facts built from that table, brought in line whenever the views or the trigger
 * text change (ensureFacts), under an advisory lock so that instances take turns. rebuildFacts()
 * recomputes a source from its table.
 */

interface Plan {
  source: FactSource;
  table: string;
  version: string;
  functions: string;
  rebuild: string;
}

interface Plans {
  plans: Plan[];
  key: string;
}

/**
 * Moves on when facts written before may differ from what the triggers compute now: since 2, facts that
 * read another record follow it when it changes, and those moved before were left where they were;
 * since 3, dash_fact_total holds the sums without warehouse and category, filled from here on.
 */
const FACTS_REVISION = 3;

/** What every source should look like now: its table, trigger functions and rebuild statement. */
async function computePlans(ctx: AppContext, views: Map<BusinessViewName, { id: number; table: string }>): Promise<Plans> {
  const tables = new Map<BusinessViewName, string>();
  for (const [name, v] of views) tables.set(name, v.table);
  // A designed view has a table; one that does not (its design failed) counts as absent.
  const names = [...tables.values()];
  const live = names.length
    ? (
        await sql<{ name: string }>`select relname as name from pg_class where relkind = 'r' and relname in (${sql.join(names)})`.execute(
          ctx.db,
        )
      ).rows
    : [];
  const present = new Set(live.map((r) => r.name));
  for (const [k, t] of tables) if (!present.has(t)) tables.delete(k);
  const facts: FactTables = { tables, statusDefaults: new Map(), columns: new Map() };
  for (const source of FACT_SOURCES) {
    const view = views.get(source);
    if (!tables.has(source) || !view) continue;
    const model = await designedView(ctx, view.id).catch(() => null);
    const dflt = model?.byName.get(SPECS[source].status)?.form?.defaultValue;
    facts.statusDefaults.set(source, dflt === undefined || dflt === '' ? null : String(dflt));
    facts.columns.set(source, new Set(model?.columns.map((c) => c.name) ?? []));
  }
  const out: Plan[] = [];
  for (const source of FACT_SOURCES) {
    const table = tables.get(source);
    if (!table || !facts.statusDefaults.has(source)) continue;
    const statusDefault = facts.statusDefaults.get(source) ?? null;
    const functions = functionsSql(source, facts);
    const rebuild = addFactsSql(source, `select to_jsonb(t) as dash_j, 1 as dash_sign from "${table}" t`, tables, statusDefault);
    // FACTS_REVISION moves every version on, so that each source's facts are computed again once.
    const version = createHash('sha1')
      .update(`${FACTS_REVISION}\n${table}\n${functions}\n${triggersSql(source, table)}`)
      .digest('hex');
    out.push({ source, table, version, functions, rebuild });
  }
  return { plans: out, key: out.map((p) => `${p.source}=${p.table}:${p.version}`).join(',') };
}

/** What every source should look like now; worked out again only when the views resolve differently. */
async function plans(ctx: AppContext): Promise<Plans> {
  const s = stateOf(ctx);
  const views = await businessViews(ctx);
  if (s.planned && s.planned.views === views) return s.planned.plans;
  const p = await computePlans(ctx, views);
  s.planned = { views, plans: p };
  return p;
}

const TRIGGER_LIST = sql<{ table: string; name: string }>`
  select c.relname as table, t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
  where t.tgname like 'dash_facts_%' and not t.tgisinternal`;

/** Any number the instances agree on: the advisory lock held while one of them installs facts. */
const INSTALL_LOCK = 7_311_027_612;

/**
 * Brings the database in line with the plans, under an advisory lock so that instances take turns: a
 * source whose table, trigger text or triggers differ from what dash_source records (or that is asked to
 * rebuild) gets its functions and triggers again and its facts recomputed from the table, with writers
 * to that table held off meanwhile. Sources without a view lose their facts.
 */
async function install(ctx: AppContext, wanted: Plan[], rebuild: ReadonlySet<FactSource>): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${INSTALL_LOCK})`.execute(trx);
    const recorded = await trx.selectFrom('dash_source').selectAll().execute();
    const sourceOfTable = new Map(wanted.map((p) => [p.table, p.source]));
    const before = await TRIGGER_LIST.execute(trx);
    for (const table of new Set(before.rows.map((r) => r.table))) {
      const was = recorded.find((r) => r.table_name === table)?.source;
      if (sourceOfTable.has(table) && (was === undefined || was === sourceOfTable.get(table))) continue;
      for (const op of TRIGGERS) await sql.raw(`drop trigger if exists ${triggerName(op)} on "${table}"`).execute(trx);
    }
    for (const r of recorded) {
      if (wanted.some((p) => p.source === r.source)) continue;
      await trx.deleteFrom('dash_fact').where('source', '=', r.source).execute();
      await trx.deleteFrom('dash_fact_total').where('source', '=', r.source).execute();
      await trx.deleteFrom('dash_source').where('source', '=', r.source).execute();
    }
    const triggers = (await TRIGGER_LIST.execute(trx)).rows;
    for (const p of wanted) {
      const r = recorded.find((x) => x.source === p.source);
      const complete = TRIGGERS.every((op) => triggers.some((x) => x.table === p.table && x.name === triggerName(op)));
      if (r?.table_name === p.table && r.version === p.version && complete && !rebuild.has(p.source)) continue;
      await sql.raw(`lock table "${p.table}" in share row exclusive mode`).execute(trx);
      await sql.raw(p.functions).execute(trx);
      await sql.raw(triggersSql(p.source, p.table)).execute(trx);
      await trx.deleteFrom('dash_fact').where('source', '=', p.source).execute();
      await trx.deleteFrom('dash_fact_total').where('source', '=', p.source).execute();
      await sql.raw(p.rebuild).execute(trx);
      await trx
        .insertInto('dash_source')
        .values({ source: p.source, table_name: p.table, version: p.version })
        .onConflict((oc) => oc.column('source').doUpdateSet({ table_name: p.table, version: p.version, installed_at: sql`now()` }))
        .execute();
    }
  });
}

interface FactsState {
  /** The plans this process last brought the database in line with. */
  installedKey: string | null;
  running: Promise<void> | null;
  /** The last plans and the resolution of the views they were made from. */
  planned: { views: Map<BusinessViewName, unknown>; plans: Plans } | null;
}
const states = new WeakMap<object, FactsState>();
function stateOf(ctx: AppContext): FactsState {
  let s = states.get(ctx.instance);
  if (!s) {
    s = { installedKey: null, running: null, planned: null };
    states.set(ctx.instance, s);
  }
  return s;
}

/** One run at a time per process; a caller that finds one running waits for it and then runs its own. */
async function serialised(ctx: AppContext, rebuild: ReadonlySet<FactSource>): Promise<void> {
  const s = stateOf(ctx);
  while (s.running) await s.running.catch(() => {});
  const p = (async () => {
    const { plans: wanted, key } = await plans(ctx);
    if (key === s.installedKey && !rebuild.size) return;
    await install(ctx, wanted, rebuild);
    s.installedKey = key;
  })();
  s.running = p;
  try {
    await p;
  } finally {
    if (s.running === p) s.running = null;
  }
}

/**
 * Makes sure every source's triggers sit on the table its view resolves to and its facts were built
 * from that table with the current trigger text. Cheap when nothing changed: one look-up of the views.
 */
export async function ensureFacts(ctx: AppContext): Promise<void> {
  const s = stateOf(ctx);
  if (s.installedKey !== null && !s.running) {
    // The common case: the views resolve as before.
    const { key } = await plans(ctx);
    if (key === s.installedKey) return;
  }
  await serialised(ctx, new Set());
}

/** Recomputes the facts of the given sources from their tables (after a company rename, say). */
export async function rebuildFacts(ctx: AppContext, sources: readonly FactSource[]): Promise<void> {
  await serialised(ctx, new Set(sources));
}
