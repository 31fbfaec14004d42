import { disposalOrders } from '../../src/contract/disposal-order.js';
import { manualOrderProblems, manualOrderSchema, PREPAY_YES } from '../../src/shared/manual-order.js';
import { ORDER_STATUS } from '../../src/shared/statuses.js';
import { checkReferences } from '../access/references.js';
import type { App } from '../app.js';
import { currentUser, hasPermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, invalidInput, notFound } from '../errors.js';
import { contractWithin, nextNumber } from '../lib/business-records.js';
import { sameCode } from '../lib/company-codes.js';
import { bodyRecord, OK, ownWarehouse, requireView } from '../lib/core-records.js';
import { regionPath } from '../lib/region-path.js';
import { recordValues } from '../lowcode/record-input.js';
import { insertRows, type Row } from '../lowcode/rows.js';
import { changeView } from '../lowcode/view-store.js';
import { registerResource, writerOf } from './register.js';

/** A new order waits to be confirmed. */
const NEW_ORDER = ORDER_STATUS.codes.pending;
/** yesOrNo values. */
const YES = '1';
const NO = '2';

/** The manual disposal order, written into the disposal-order view with a copy of the form as sent. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, disposalOrders, {
    addButton: async (req) => {
      const u = currentUser(req);
      return { status: 200, addBtnShow: hasPermission(u.roles, 'disposalOrder:add') ? (1 as const) : (0 as const) };
    },

    add: async (req, reply) => {
      const u = currentUser(req);
      const input = bodyRecord(req.body);
      const problems = manualOrderProblems(input);
      if (problems.length) return reply.status(400).send(invalidInput(problems[0]!.message).with({ errors: problems }).body());
      const form = manualOrderSchema.parse(input);
      const view = await requireView(ctx, 'disposalOrder');

      // Party A: the contracting company, by id, department code or credit code.
      const key = form.partyACompany;
      const asId = /^\d{1,9}$/.test(key) ? Number(key) : -1;
      const partyA = await db
        .selectFrom('company')
        .select(['id', 'name', 'region', 'region_fmt'])
        .where((eb) => eb.or([eb('id', '=', asId), sameCode('dept_code', key), sameCode('credit_code', key)]))
        .orderBy('id')
        .executeTakeFirst();
      if (!partyA) throw badRequest('PARTY_A_NOT_FOUND');
      // The order's region is a real region of the table, labelled as the table labels it.
      const region = form.partyARegion ? await regionPath(db, form.partyARegion) : null;
      if (form.partyARegion && !region) throw badRequest('ORDER_REGION_INVALID');
      if (form.processId) {
        const process = await db.selectFrom('disposal_process').select('id').where('id', '=', form.processId).executeTakeFirst();
        if (!process) throw badRequest('PROCESS_NOT_FOUND');
      }
      // Party B: the unloading point's company, else the user's own.
      const warehouse = await ownWarehouse(ctx, u, form.partyBWarehouseId);
      const partyB = warehouse
        ? { id: warehouse.company_id, name: warehouse.company_name }
        : u.companyId
          ? await db.selectFrom('company').select(['id', 'name']).where('id', '=', u.companyId).executeTakeFirst()
          : undefined;
      if (!partyB) throw badRequest('UNLOADING_POINT_REQUIRED');
      // A company does not contract with itself.
      if (partyB.id === partyA.id) throw badRequest('PARTY_A_IS_DISPOSER');
      let contractNo = form.contractNo ?? null;
      if (form.contractId) {
        const c = await contractWithin(db, u, form.contractId);
        if (!c) throw notFound('CONTRACT_NOT_FOUND');
        if (c.party_a_company !== partyA.id) throw badRequest('CONTRACT_OF_OTHER_PARTY');
        contractNo = c.contract_no;
      }
      const waste = await db
        .selectFrom('waste_category')
        .select(['code', 'category'])
        .where('code', '=', form.wasteCategoryCode)
        .executeTakeFirst();
      if (!waste) throw badRequest('WASTE_CODE_NOT_FOUND');

      const orderNo = await nextNumber(db, view, 'orderNo', 'CZ', u.companyId);
      const record: Row = {
        orderNo,
        contractNo,
        // The contract by id, which 相关合同 opens; a view without the field ignores it.
        contractId: form.contractId ?? null,
        // The parties by company id: their names are the companies' own, whatever the form showed.
        producerId: partyA.id,
        producerRegion: region ? region.codes.join(',') : partyA.region,
        producerRegionFmt: region ? region.fmt : partyA.region_fmt,
        disposerId: partyB.id,
        wasteCategory: waste.category,
        quantity: form.quantity,
        price: form.price,
        processMethods: form.processId ? String(form.processId) : null,
        estDisposalTime: form.estDisposalTime ?? null,
        orderStatus: NEW_ORDER,
        needPrepay: form.needPrepay === PREPAY_YES ? YES : NO,
        prepayPrice: form.prepayPrice,
        remark: form.remark ?? null,
      };
      const values = recordValues(view, record);
      // amount is read-only on the order page: the back end sets it.
      if (view.columns.some((c) => c.name === 'amount')) values.amount = form.amount;
      // The companies it names are judged as the order form's pickers would offer them.
      await checkReferences(ctx, view, u, values);
      const id = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          const [newId] = await insertRows(trx, view, [values], u);
          await trx
            .insertInto('disposal_order_manual')
            .values({
              record_id: newId!,
              view_id: view.id,
              payload: JSON.stringify({
                ...form,
                partyACompanyId: partyA.id,
                partyBCompanyId: partyB.id,
                partyBCompanyName: partyB.name,
                orderNo,
              }),
              create_by: u.username,
            })
            .execute();
          return newId!;
        });
      changeView(ctx, view.id);
      return { ...OK, id, orderNo, amount: form.amount };
    },
  });
}
