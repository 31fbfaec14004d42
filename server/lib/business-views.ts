import { menuComponentName } from '../../src/model/index.js';
import type { AppContext } from '../context.js';
import { viewTable } from '../lowcode/ddl.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { designedView } from '../lowcode/view-store.js';

/**
 * Business records live in the tables of the low-code views users edit (危废入库, 处置订单, …). The
 * calls built on them find each view by its componentName (the permission prefix of its pages), never by
 * a fixed id: a view re-created under a new id still feeds the dashboards. Among views sharing a
 * componentName, a published one wins over a draft, then the lowest id.
 */

export const BUSINESS_VIEWS = [
  'stockIn',
  'stockOut',
  'warehouse',
  'disposalInquiry',
  'contract',
  'vehicle',
  'leaveMessage',
  'disposalOrder',
  'logisticsOrder',
] as const;
export type BusinessViewName = (typeof BUSINESS_VIEWS)[number];

export interface ResolvedView {
  id: number;
  table: string;
}

interface ResolverState {
  resolved: Promise<Map<BusinessViewName, ResolvedView>> | null;
  generation: number;
}

const states = new WeakMap<object, ResolverState>();

function state(ctx: AppContext): ResolverState {
  let s = states.get(ctx.instance);
  if (!s) {
    const created: ResolverState = { resolved: null, generation: 0 };
    // Any definition change (on this instance or another) may move a componentName to another view.
    ctx.bus.on((e) => {
      if (e.t !== 'view-changed') return;
      created.resolved = null;
      created.generation++;
    });
    ctx.bus.onReset(() => {
      created.resolved = null;
      created.generation++;
    });
    s = created;
    states.set(ctx.instance, s);
  }
  return s;
}

/**
 * The definition row standing for each wanted componentName, among rows in id order: a published one
 * wins over a draft, then the lowest id.
 */
export function pickByComponentName<R extends { status: number | null; dis_menu: string | null }>(
  rows: readonly R[],
  wanted: ReadonlySet<string>,
): Map<string, R> {
  const out = new Map<string, R>();
  for (const r of rows) {
    const name = menuComponentName(r.dis_menu);
    if (!name || !wanted.has(name)) continue;
    const seen = out.get(name);
    if (seen && (seen.status === 1 || r.status !== 1)) continue;
    out.set(name, r);
  }
  return out;
}

async function resolve(ctx: AppContext): Promise<Map<BusinessViewName, ResolvedView>> {
  const rows = await ctx.db
    .selectFrom('lc_generation')
    .select(['id', 'status', 'dis_menu'])
    .where('dis_template', 'is not', null)
    .orderBy('id')
    .execute();
  const picked = pickByComponentName(rows, new Set<string>(BUSINESS_VIEWS));
  return new Map([...picked].map(([k, r]) => [k as BusinessViewName, { id: r.id, table: viewTable(r.id) }]));
}

/** componentName → view id and table, for every business view that is designed. */
export async function businessViews(ctx: AppContext): Promise<Map<BusinessViewName, ResolvedView>> {
  const s = state(ctx);
  if (!s.resolved) {
    const generation = s.generation;
    const p = resolve(ctx);
    s.resolved = p;
    p.catch(() => {
      if (s.resolved === p) s.resolved = null;
    });
    const result = await p;
    // A change that arrived while resolving makes the next caller resolve again.
    if (s.generation !== generation && s.resolved === p) s.resolved = null;
    return result;
  }
  return s.resolved;
}

/** The view behind a business componentName, read through the page model; null when none is designed. */
export async function businessView(ctx: AppContext, name: BusinessViewName): Promise<ViewModel | null> {
  const v = (await businessViews(ctx)).get(name);
  return v ? designedView(ctx, v.id) : null;
}
