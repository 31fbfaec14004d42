import { type RawBuilder, sql } from 'kysely';
import { logistics } from '../../src/contract/logistics.js';
import { ORDER_STATUS, VEHICLE_STATUS } from '../../src/shared/statuses.js';
import { type PartyLookup, rowScope } from '../access/rows.js';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { businessView } from '../lib/business-views.js';
import { ensureFacts } from '../lib/dashboard-fact-install.js';
import { factGroups, factTotalsAll, type Scope } from '../lib/dashboard-facts.js';
import { dates, scopedFigure, three } from '../lib/dashboard-scope.js';
import { dictLabelsOf } from '../lib/dict-labels.js';
import { pageParams } from '../lib/paging.js';
import { INT4_MAX } from '../lib/sql.js';
import { viewTable } from '../lowcode/ddl.js';
import { authorOf, findRecord } from '../lowcode/rows.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { listReader } from '../lowcode/view-store.js';
import { registerResource } from './register.js';

/**
 * The logistics home and the logistics detail page: order counters and monthly figures, orders per
 * warehouse, the capacity panel, and one order's parties and transport. Logistics orders are records of
 * the logisticsOrder view; an order reaches a warehouse through its disposal order's stock-in record.
 */

/** Order states (orderStatus), by their codes. */
const ORDER = ORDER_STATUS.codes;
/** Vehicle states (vehicleStatus): idle, on the road and under repair are in service; out of service is not. */
const VEHICLE = VEHICLE_STATUS.codes;
const IN_SERVICE = [VEHICLE.idle, VEHICLE.onRoad, VEHICLE.repair];
const MONTHS = 12;
/** Most orders a page of a warehouse's orders may expect to walk for its parties to be looked up row by row. */
const WALK_ROWS = 2000;

/** A party of an order as answered: its company and the company's contact, the address as given. */
const partyOf = (
  company: { id: number | null; name: string | null; contact_name: string | null; contact_phone: string | null } | null | undefined,
  address: string | null,
  regionFmt: string | null,
) => ({
  companyId: company?.id ?? null,
  companyName: company?.name ?? null,
  linkman: company?.contact_name ?? null,
  phone: company?.contact_phone ?? null,
  address,
  regionFmt,
});

const str = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
const numOrNull = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));

interface Chain {
  logistics: ViewModel;
  orders: ViewModel | null;
  stock: ViewModel | null;
}

/**
 * The running sums' scope that holds exactly the records of the user's row scope: every record, or its
 * company's (its own and its departments' records are its company's). Undefined for any other scope.
 */
const sumsScope = (u: SessionUser): Scope | undefined => {
  const s = u.dataScope;
  if (s.all) return { kind: 'all' };
  if (s.companyId !== null && s.companyId === u.companyId && !s.depts.length) return { kind: 'company', companyId: s.companyId };
  return undefined;
};

/** A row of a warehouse's page before its record is read: the order's id and what its disposal order adds. */
interface PageRow {
  id: number;
  orderNo: unknown;
  producerName: string | null;
  disposerName: string | null;
  warehouseId: number | string | null;
  warehouseName: string | null;
}

const has = (v: ViewModel | null, name: string) => !!v && v.columns.some((c) => c.name === name);

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  // ----- the logistics home's figures -----

  const dashboard = scopedFigure(ctx, 'logistics', async (scope) => {
    const d = dates();
    const [byStatus, [month, yearDone]] = await Promise.all([
      factGroups(db, { source: 'logisticsOrder', scope }, 'status'),
      factTotalsAll(db, [
        { source: 'logisticsOrder', scope, dayFrom: d.monthStart(0) },
        { source: 'logisticsOrder', scope, statuses: [ORDER.finished], dayFrom: d.yearStart, dayTo: d.yearEnd },
      ]),
    ]);
    const of = (status: string) => byStatus.find((g) => g.key === status);
    const count = (status: string) => of(status)?.n ?? 0;
    return {
      total: byStatus.reduce((s, g) => s + g.n, 0),
      pending: count(ORDER.pending),
      inTransit: count(ORDER.ongoing),
      finished: count(ORDER.finished),
      cancelled: count(ORDER.cancelled),
      rejected: count(ORDER.rejected),
      ongoingWeight: three((of(ORDER.pending)?.qty ?? 0) + (of(ORDER.ongoing)?.qty ?? 0)),
      monthCount: month.n,
      yearFreight: three(yearDone.amount),
    };
  });

  // Orders, tons and freight per month over the last twelve months (by loading time), oldest first.
  const monthly = scopedFigure(ctx, 'logisticsMonths', async (scope) => {
    const d = dates();
    const groups = await factGroups(
      db,
      { source: 'logisticsOrder', scope, dayFrom: d.monthStart(MONTHS - 1), dayTo: d.plusDays(0) },
      'month',
    );
    const months = Array.from({ length: MONTHS }, (_, i) => d.monthStart(MONTHS - 1 - i).slice(0, 7));
    const at = (m: string) => groups.find((g) => g.key === m);
    return {
      months,
      counts: months.map((m) => at(m)?.n ?? 0),
      weights: months.map((m) => three(at(m)?.qty ?? 0)),
      freights: months.map((m) => three(at(m)?.amount ?? 0)),
    };
  });

  const capacity = scopedFigure(ctx, 'transport', async (scope) => {
    const byStatus = await factGroups(db, { source: 'vehicle', scope, statuses: IN_SERVICE }, 'status');
    const of = (status: string) => byStatus.find((g) => g.key === status);
    return {
      existingCount: byStatus.reduce((s, g) => s + g.n, 0),
      idleCount: of(VEHICLE.idle)?.n ?? 0,
      inTransitCount: of(VEHICLE.onRoad)?.n ?? 0,
      repairCount: of(VEHICLE.repair)?.n ?? 0,
      loadCapacity: three(byStatus.reduce((s, g) => s + g.qty, 0)),
      idleLoadCapacity: three(of(VEHICLE.idle)?.qty ?? 0),
    };
  });

  // ----- orders and their parties -----

  async function chain(): Promise<Chain> {
    const logistics = await businessView(ctx, 'logisticsOrder');
    if (!logistics) throw notFound('LOGISTICS_VIEW_NOT_FOUND');
    const [orders, stock] = await Promise.all([businessView(ctx, 'disposalOrder'), businessView(ctx, 'stockIn')]);
    return { logistics, orders, stock };
  }

  /**
   * The logistics orders a user may see (their row scope, as /api/general lists them), as a join from t
   * (logistics) to o (its disposal order, when the user may see it) and s (that order's stock-in).
   */
  async function visible(u: SessionUser, c: Chain, lookup: PartyLookup = 'set') {
    const joinOrder = !!c.orders && has(c.logistics, 'disposalOrderId');
    const joinStock = joinOrder && !!c.stock && has(c.orders, 'stockId') && has(c.stock, 'warehouseId');
    // The disposal order joins only when it is within the user's scope too: a waybill of the user's own
    // that names another's order shows nothing of that order, nor of the warehouse it loads from.
    const orderScope = joinOrder ? await rowScope(ctx, c.orders!, u) : undefined;
    const orders = orderScope
      ? sql`(select * from ${sql.table(viewTable(c.orders!.id))} as t where ${orderScope.condition})`
      : sql.table(viewTable(c.orders?.id ?? 0));
    const from = sql.join(
      [
        sql`${sql.table(viewTable(c.logistics.id))} as t`,
        ...(joinOrder ? [sql`left join ${orders} o on o.id = t."disposalOrderId"`] : []),
        ...(joinStock ? [sql`left join ${sql.table(viewTable(c.stock!.id))} s on s.id = o."stockId"`] : []),
      ],
      sql` `,
    );
    const where: RawBuilder<unknown>[] = [];
    const scope = await rowScope(ctx, c.logistics, u, lookup);
    if (scope) where.push(scope.condition);
    const column = (ok: boolean, expr: RawBuilder<unknown>, as: string) =>
      ok ? sql`${expr} as ${sql.id(as)}` : sql`null as ${sql.id(as)}`;
    const extras = sql.join([
      column(joinOrder && has(c.orders, 'orderNo'), sql`o."orderNo"`, 'orderNo'),
      column(joinOrder && has(c.orders, 'producerId'), sql`(select name from company where id = o."producerId")`, 'producerName'),
      column(joinOrder && has(c.orders, 'disposerId'), sql`(select name from company where id = o."disposerId")`, 'disposerName'),
      column(joinStock, sql`s."warehouseId"`, 'warehouseId'),
      column(joinStock, sql`(select name from company_warehouse where id = s."warehouseId")`, 'warehouseName'),
    ]);
    return { from, where, extras, joinStock };
  }

  /**
   * One logistics order within the user's scope, with its disposal order; any other is missing (404). The
   * disposal order must be within the user's scope too (a carrier's: the orders that name it as their
   * carrier): a waybill of the user's own that names another's order shows nothing of it.
   */
  async function oneOrder(u: SessionUser, id: number) {
    const c = await chain();
    const record = await findRecord(db, c.logistics, id, await rowScope(ctx, c.logistics, u));
    if (!record) throw notFound('LOGISTICS_ORDER_NOT_FOUND');
    const orderId = Number(record.disposalOrderId);
    if (!c.orders || !Number.isSafeInteger(orderId) || orderId <= 0) return { c, record, order: null };
    const order = await findRecord(db, c.orders, orderId, await rowScope(ctx, c.orders, u));
    if (!order) throw notFound('LOGISTICS_ORDER_NOT_FOUND');
    return { c, record, order };
  }

  const companyById = async (value: unknown) => {
    const id = numOrNull(value);
    if (id === null || !Number.isSafeInteger(id) || id <= 0 || id > INT4_MAX) return null;
    return (
      (await db
        .selectFrom('company')
        .select(['id', 'name', 'contact_name', 'contact_phone', 'address', 'region_fmt'])
        .where('id', '=', id)
        .executeTakeFirst()) ?? null
    );
  };

  registerResource(app, logistics, {
    dashboard,
    monthly,
    capacity,

    byWarehouse: async (req) => {
      const u = currentUser(req);
      const { warehouseId } = req.query;
      const c = await chain();
      if (warehouseId !== undefined) {
        const w = await db.selectFrom('company_warehouse').select('company_id').where('id', '=', warehouseId).executeTakeFirst();
        if (!w) throw notFound('WAREHOUSE_NOT_FOUND');
      }
      const { limit, offset } = pageParams(req.query.page, req.query.size);
      // The count comes from the running sums, which attribute each order to its warehouse when it is
      // written, when they hold the user's scope (every record, or its company's); else from the rows.
      const sums = sumsScope(u);
      let counted: Promise<{ n: number }> | undefined;
      let lookup: PartyLookup = 'set';
      if (sums) {
        await ensureFacts(ctx);
        const [mine, all] = await factTotalsAll(db, [
          { source: 'logisticsOrder', scope: sums, warehouseId },
          { source: 'logisticsOrder', scope: { kind: 'all' } },
        ]);
        counted = Promise.resolve(mine);
        // The page walks every order newest first until it holds offset + limit of the user's. When they
        // are dense enough for a short walk, each row's parties are looked up; else they are hashed once.
        if (mine.n > 0 && ((offset + limit) * all.n) / mine.n <= WALK_ROWS) lookup = 'row';
      }
      const { from, where, extras, joinStock } = await visible(u, c, lookup);
      if (warehouseId !== undefined) {
        if (!joinStock) return { content: [], totalElements: 0 };
        where.push(sql`s."warehouseId" = ${warehouseId}`);
      }
      const cond = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
      counted ??= sql<{ n: number | string }>`select count(*) as n from ${from} ${cond}`
        .execute(db)
        .then((r) => ({ n: Number(r.rows[0]?.n ?? 0) }));
      const [page, total] = await Promise.all([
        sql<PageRow>`select t.id, ${extras} from ${from} ${cond} order by t.id desc limit ${limit} offset ${offset}`.execute(db),
        counted,
      ]);
      if (!page.rows.length) return { content: [], totalElements: total.n };
      const rows = await listReader(ctx).records(
        c.logistics,
        page.rows.map((r) => r.id),
      );
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      const content = page.rows.flatMap(({ id, ...extra }) => {
        const r = byId.get(Number(id));
        if (!r) return [];
        const wh = extra.warehouseId === null || extra.warehouseId === undefined ? null : Number(extra.warehouseId);
        return [{ ...r, ...extra, id: Number(id), warehouseId: wh }];
      });
      return { content, totalElements: total.n };
    },

    linkman: async (req) => {
      const { c, record, order } = await oneOrder(currentUser(req), req.query.id);
      const [producer, disposer] = await Promise.all([companyById(order?.producerId), companyById(order?.disposerId)]);
      // The carrier is the account that wrote the order, by its id: a username can change hands.
      const { userId } = await authorOf(db, c.logistics, Number(record.id));
      const creator =
        userId === null
          ? undefined
          : await db
              .selectFrom('sys_user as u')
              .leftJoin('company as c', 'c.id', 'u.company_id')
              .select(['u.nick_name', 'u.phone', 'c.id', 'c.name', 'c.contact_name', 'c.contact_phone', 'c.address', 'c.region_fmt'])
              .where('u.id', '=', userId)
              .executeTakeFirst();
      return {
        id: Number(record.id),
        waybillNo: str(record.waybillNo),
        shipper: partyOf(producer, str(record.fromAddress), str(record.fromRegionFmt)),
        receiver: partyOf(disposer, str(record.toAddress), disposer?.region_fmt ?? null),
        carrier: {
          ...partyOf(creator, creator?.address ?? null, creator?.region_fmt ?? null),
          userName: creator?.nick_name ?? null,
          userPhone: creator?.phone ?? null,
        },
      };
    },

    transport: async (req) => {
      const { record, order } = await oneOrder(currentUser(req), req.query.id);
      const vehicles = await businessView(ctx, 'vehicle');
      const vehicleId = Number(record.vehicleId);
      const vehicle =
        vehicles && Number.isSafeInteger(vehicleId) && vehicleId > 0 ? ((await findRecord(db, vehicles, vehicleId)) ?? null) : null;
      const labels = await dictLabelsOf(db, ['orderStatus', 'motorcycle_type', 'wasteCategory']);
      const statusLabels = labels.get('orderStatus') ?? new Map<string, string>();
      const typeLabels = labels.get('motorcycle_type') ?? new Map<string, string>();
      const categoryLabels = labels.get('wasteCategory') ?? new Map<string, string>();
      return {
        id: Number(record.id),
        waybillNo: str(record.waybillNo),
        orderStatus: str(record.orderStatus),
        orderStatusLabel: statusLabels.get(String(record.orderStatus ?? '')) ?? null,
        weight: numOrNull(record.weight),
        freight: numOrNull(record.freight),
        fromRegion: str(record.fromRegion),
        fromRegionFmt: str(record.fromRegionFmt),
        fromAddress: str(record.fromAddress),
        toAddress: str(record.toAddress),
        loadTime: str(record.loadTime),
        arriveTime: str(record.arriveTime),
        disposalOrder: order
          ? {
              id: Number(order.id),
              orderNo: str(order.orderNo),
              wasteCategory: str(order.wasteCategory),
              // The class as its dictionary names it, code and name (HW49 其他废物).
              wasteCategoryLabel: categoryLabels.get(String(order.wasteCategory ?? '')) ?? null,
              quantity: numOrNull(order.quantity),
            }
          : null,
        vehicle: vehicle
          ? {
              id: Number(vehicle.id),
              plateNo: str(vehicle.plateNo),
              vehicleType: str(vehicle.vehicleType),
              vehicleTypeLabel: typeLabels.get(String(vehicle.vehicleType ?? '')) ?? null,
              loadCapacity: numOrNull(vehicle.loadCapacity),
              driverName: str(vehicle.driverName),
              driverPhone: str(vehicle.driverPhone),
              escortName: str(vehicle.escortName),
              escortPhone: str(vehicle.escortPhone),
            }
          : null,
      };
    },
  });
}
