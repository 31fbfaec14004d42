import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import { inventoryConfig, limitBody, limitIds } from '../../src/contract/inventory-config.js';
import { ownCompanyId, seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { warehouseWithin } from '../lib/business-records.js';
import { OK } from '../lib/core-records.js';
import { paginate } from '../lib/paging.js';
import { WIRE_TIME_FORMAT } from '../lib/sql.js';
import { registerResource, writerOf } from './register.js';

/** Inventory limits per company, warehouse and waste category, which the warehouse inventories are checked against. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const configScope = (u: SessionUser, asked?: number) => {
    if (seesAll(u)) return asked ?? null;
    return ownCompanyId(u);
  };

  const saveConfig = async (req: FastifyRequest, u: SessionUser, body: z.infer<typeof limitBody>, id?: number) => {
    let companyId = configScope(u, body.companyId);
    if (body.warehouseId) {
      const w = await warehouseWithin(db, u, body.warehouseId);
      if (!w) throw notFound('WAREHOUSE_NOT_FOUND');
      if (companyId !== null && w.company_id !== companyId) throw badRequest('WAREHOUSE_OF_OTHER_COMPANY');
      companyId = w.company_id;
    }
    if (companyId === null) throw badRequest('COMPANY_REQUIRED');
    // A limit for a waste category names one of the catalogue's categories (HW01…), or none for all.
    if (body.wasteCategory) {
      const known = await db
        .selectFrom('waste_category')
        .select('category')
        .where('category', '=', body.wasteCategory)
        .limit(1)
        .executeTakeFirst();
      if (!known) throw badRequest('WASTE_CATEGORY_NOT_FOUND');
    }
    const values = {
      company_id: companyId,
      warehouse_id: body.warehouseId ?? null,
      waste_category: body.wasteCategory || null,
      max_quantity: body.maxQuantity,
      remark: body.remark || null,
    };
    if (id === undefined) {
      const row = await writerOf(req)
        .insertInto('inventory_config')
        .values({ ...values, create_by: u.username })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }
    let q = writerOf(req).updateTable('inventory_config').set(values).where('id', '=', id);
    if (!seesAll(u)) q = q.where('company_id', '=', u.companyId ?? -1);
    const res = await q.executeTakeFirst();
    if (!Number(res.numUpdatedRows)) throw notFound('INVENTORY_LIMIT_NOT_FOUND');
    return id;
  };

  const removeConfig = async (req: FastifyRequest, u: SessionUser, body: unknown) => {
    const ids = parseBody(limitIds, body);
    let q = writerOf(req).deleteFrom('inventory_config').where('id', 'in', ids);
    if (!seesAll(u)) q = q.where('company_id', '=', u.companyId ?? -1);
    await q.execute();
    return OK;
  };

  registerResource(app, inventoryConfig, {
    list: async (req) => {
      const company = configScope(currentUser(req), req.query.companyId);
      let base = db.selectFrom('inventory_config as i');
      if (company !== null) base = base.where('i.company_id', '=', company);
      return paginate(
        base,
        (q) =>
          q
            .leftJoin('company as c', 'c.id', 'i.company_id')
            .leftJoin('company_warehouse as w', 'w.id', 'i.warehouse_id')
            .select([
              'i.id',
              'i.company_id as companyId',
              'c.name as companyName',
              'i.warehouse_id as warehouseId',
              'w.name as warehouseName',
              'i.waste_category as wasteCategory',
              'i.max_quantity as maxQuantity',
              'i.remark',
              sql<string>`to_char(i.create_time, ${WIRE_TIME_FORMAT})`.as('createTime'),
            ])
            .orderBy('i.id', 'desc'),
        { page: req.query.page, size: req.query.size },
      );
    },

    add: async (req) => ({
      ...OK,
      id: await saveConfig(req, currentUser(req), parseBody(limitBody, req.body)),
    }),
    edit: async (req) => {
      const body = parseBody(limitBody, req.body);
      if (!body.id) throw badRequest('ID_REQUIRED');
      return { ...OK, id: await saveConfig(req, currentUser(req), body, body.id) };
    },
    remove: async (req) => removeConfig(req, currentUser(req), req.body),
    removeUnslashed: async (req) => removeConfig(req, currentUser(req), req.body),
  });
}
