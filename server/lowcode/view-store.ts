import type { RawBuilder } from 'kysely';
import type { BusEvent } from '../bus.js';
import type { AppContext } from '../context.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { isDbId } from '../lib/sql.js';
import { chooseListReading, type ListReading } from './list-reader.js';
import type { ListQuery, ListReader } from './list-types.js';
import { referenceLabels } from './reference-labels.js';
import { indexedRows } from './row-state.js';
import { readView, type ViewModel } from './view-model.js';

/**
 * Parsed view definitions and the list reading (cache, rows in memory, reader), one set per running
 * server. The general CRUD reads a definition on every call, so parsed definitions are kept until the
 * view changes; changeView() is the single invalidation point for definitions and list answers alike.
 */
interface LowcodeState extends ListReading {
  views: Map<number, { version: number; view: ViewModel | null }>;
}

const states = new WeakMap<object, LowcodeState>();
/** Record writes of this instance, already applied to its list cache by ListCache.write. */
const ownRowWrites = new WeakSet<object>();

export function lowcodeState(asked: AppContext): LowcodeState {
  let s = states.get(asked.instance);
  if (!s) {
    const ctx = asked.instance.home ?? asked;
    const state: LowcodeState = { ...chooseListReading(ctx), views: new Map() };
    // Writes on other instances of the same database invalidate here too; after missed events, everything.
    ctx.bus.on((e) => {
      if (e.t !== 'view-changed' && e.t !== 'rows-changed' && e.t !== 'rows-outside') return;
      // Lists of views whose rows show labels of this view's records are read again.
      for (const [id, v] of state.views) {
        if (id !== e.viewId && v.view?.references?.some((r) => r.viewId === e.viewId)) {
          state.views.delete(id);
          state.cache.bump(id);
        }
      }
      if (e.t === 'rows-outside') {
        outsideRows(ctx, state, e);
        return;
      }
      if (ownRowWrites.has(e)) return;
      // Another instance's record write moves this one's cached lists on, as its own writes do.
      if (e.t === 'rows-changed' && remoteRows?.(ctx, e.viewId, e.gone, e.come)) return;
      state.views.delete(e.viewId);
      state.cache.bump(e.viewId);
    });
    ctx.bus.onReset(() => {
      state.views.clear();
      state.cache.bumpAll();
    });
    s = state;
    states.set(ctx.instance, s);
  }
  return s;
}

/**
 * Rows changed outside the server's record writes, told by the view table's trigger with their ids and
 * scopes (see row-notify.ts): the cached answers of the scopes they were or are in go, and so do the
 * administrator's (whose lists hold every row); the rows in memory are read again by id. Told only that
 * the view changed (too many rows for one notice), the cache forgets the view.
 */
function outsideRows(ctx: AppContext, state: ListReading, e: Extract<BusEvent, { t: 'rows-outside' }>): void {
  const ids = Array.isArray(e.ids) ? e.ids.map(Number).filter((id) => Number.isSafeInteger(id)) : null;
  if (!ids || !Array.isArray(e.scopes)) {
    state.cache.bump(e.viewId);
    return;
  }
  const scopes = e.scopes.filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null);
  state.cache.outside(e.viewId, (f) => {
    const test = (f.filter as ListQuery).scope?.test;
    return !test || scopes.some((s) => test(s) !== false);
  });
  state.indexes?.outside(e.viewId, ids, (view, wanted) => indexedRows(ctx, view, wanted));
}

/** What the server reads its views' lists with (chosen once, from its settings). */
export function listReader(ctx: AppContext): ListReader {
  return lowcodeState(ctx).reader;
}

/** Call after a write to a view's definition or rows has committed; every instance forgets what it cached. */
export function changeView(ctx: AppContext, viewId: number): void {
  lowcodeState(ctx);
  void ctx.bus.publish({ t: 'view-changed', viewId });
}

/**
 * The notice of a record write made through ListCache.write (record-writes.ts), sent by the write's own
 * statement (Bus.inStatement): this instance's cache moves on with the write itself; the other instances
 * get `remote`, the written rows (see RemoteRows), or when it is too long forget what they cached of the view.
 */
export function rowsNotice(ctx: AppContext, viewId: number, remote?: RawBuilder<unknown>): ReturnType<AppContext['bus']['inStatement']> {
  lowcodeState(ctx);
  const event = { t: 'view-changed', viewId } as const;
  ownRowWrites.add(event);
  return ctx.bus.inStatement(event, remote);
}

/**
 * Applies another instance's record write to this instance's list cache, from the rows' states before and
 * after it; false when it cannot (the view's definition is not at hand): the view is then forgotten.
 */
export type RemoteRows = (ctx: AppContext, viewId: number, gone: unknown[], come: unknown[]) => boolean;
let remoteRows: RemoteRows | undefined;

/** Set once by the record writes, which know how rows are judged and placed. */
export function onRemoteRows(apply: RemoteRows): void {
  remoteRows = apply;
}

/** The view's definition as this instance has it now, without reading it; undefined when not at hand. */
export function knownView(ctx: AppContext, viewId: number): ViewModel | undefined {
  const s = lowcodeState(ctx);
  const cached = s.views.get(viewId);
  return cached && cached.version === s.cache.version(viewId) ? (cached.view ?? undefined) : undefined;
}

async function loadDefinition(ctx: AppContext, viewId: number): Promise<ViewModel | null> {
  const s = lowcodeState(ctx);
  const cached = s.views.get(viewId);
  const version = s.cache.version(viewId);
  if (cached && cached.version === version) return cached.view;
  const row = await ctx.db
    .selectFrom('lc_generation')
    .select(['id', 'name', 'status', 'dis_menu', 'dis_template'])
    .where('id', '=', viewId)
    .executeTakeFirst();
  if (!row) throw notFound('VIEW_NOT_FOUND');
  const view = readView(row);
  if (view) view.references = await referenceLabels(view, (id) => readOnly(ctx, id));
  if (s.cache.version(viewId) === version) s.views.set(viewId, { version, view });
  return view;
}

/** Another view's definition, without its own references (a view may refer back). */
async function readOnly(ctx: AppContext, viewId: number): Promise<ViewModel | null> {
  const row = await ctx.db
    .selectFrom('lc_generation')
    .select(['id', 'name', 'status', 'dis_menu', 'dis_template'])
    .where('id', '=', viewId)
    .executeTakeFirst();
  return row ? readView(row) : null;
}

/** The designed view behind /api/general/*: 404 when unknown, 400 when not designed yet. */
export async function designedView(ctx: AppContext, viewId: number): Promise<ViewModel> {
  if (!isDbId(viewId)) throw notFound('VIEW_NOT_FOUND');
  let view: ViewModel | null;
  try {
    view = await loadDefinition(ctx, viewId);
  } catch (e) {
    if (e instanceof ApiError && e.statusCode === 400) throw badRequest('VIEW_DEFINITION_BROKEN', { reason: e.message });
    throw e;
  }
  if (!view) throw badRequest('VIEW_NOT_DESIGNED');
  return view;
}
