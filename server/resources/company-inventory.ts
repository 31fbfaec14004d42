import { companyInventory } from '../../src/contract/company-inventory.js';
import { formatDate } from '../../src/shared/format.js';
import { checkReferences } from '../access/references.js';
import { rowScope } from '../access/rows.js';
import type { App } from '../app.js';
import { currentUser, requirePermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { nextNumber } from '../lib/business-records.js';
import { bodyRecord, OK, ownWarehouse, requireView } from '../lib/core-records.js';
import { holdTypedNumbers, typedNumberProblems, typedNumbers } from '../lowcode/doc-numbers.js';
import { recordValues } from '../lowcode/record-input.js';
import { updateRecord } from '../lowcode/record-writes.js';
import { findRecord, insertRows, type Row } from '../lowcode/rows.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { changeView } from '../lowcode/view-store.js';
import { registerResource, writerOf, writingContext } from './register.js';

/** stockStatus 1: in stock. Company inventory records always carry it. */
const IN_STOCK = '1';

/** The column value that puts a stock-in record in stock; the form shows its status without submitting it. */
function inStock(view: ViewModel): Row {
  const status = view.byName.get('status');
  return status && !status.system ? { [status.column]: IN_STOCK } : {};
}

/** Company inventory: the stock-in records that are in stock. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const inventoryRecord = async (u: SessionUser, input: Row): Promise<Row> => {
    const record: Row = { ...input };
    delete record.id;
    await ownWarehouse(ctx, u, record.warehouseId);
    return record;
  };

  registerResource(app, companyInventory, {
    add: async (req) => {
      // A record added in stock is an add and its confirmation at once: it takes both permissions.
      const u = requirePermission(req, 'stockIn:edit');
      const view = await requireView(ctx, 'stockIn');
      const record = await inventoryRecord(u, bodyRecord(req.body));
      const typedByCaller = !(record.stockNo === undefined || record.stockNo === null || record.stockNo === '');
      if (!typedByCaller) record.stockNo = await nextNumber(db, view, 'stockNo', 'RK', u.companyId);
      else {
        // A typed number is judged as on the generic add: not today's series, nor one the company has.
        const [refused] = await typedNumberProblems(db, view, [{ stockNo: record.stockNo }], u.companyId);
        if (refused) throw refused;
      }
      record.inTime ??= formatDate(Date.now(), 'YYYY-MM-DD HH:mm:ss');
      record.handler ??= u.nickName;
      const values = { ...recordValues(view, record), ...inStock(view) };
      // What a record picks (warehouse, contacts, files) is judged as on the generic calls.
      await checkReferences(ctx, view, u, values);
      // A number the caller typed (not the one just given) is held by the insert's transaction and judged again there.
      const typed = typedByCaller ? typedNumbers(view, [values]) : undefined;
      const [id] = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          if (typed) await holdTypedNumbers(trx, view, typed, u.companyId);
          return insertRows(trx, view, [values], u);
        });
      changeView(ctx, view.id);
      return { ...OK, id: id!, stockNo: record.stockNo };
    },

    edit: async (req) => {
      const u = currentUser(req);
      const view = await requireView(ctx, 'stockIn');
      const body = bodyRecord(req.body);
      const id = Number(body.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw badRequest('ID_REQUIRED');
      // A record outside the user's scope is answered as missing, as the generic record calls do.
      const scope = await rowScope(ctx, view, u);
      const existing = await findRecord(db, view, id, scope);
      if (!existing) throw notFound('INVENTORY_NOT_FOUND');
      const record = await inventoryRecord(u, body);
      const values = { ...recordValues(view, record, existing), ...inStock(view) };
      await checkReferences(ctx, view, u, values, existing);
      if (!(await updateRecord(writingContext(ctx, req), view, id, values, scope))) throw notFound('INVENTORY_NOT_FOUND');
      return OK;
    },
  });
}
