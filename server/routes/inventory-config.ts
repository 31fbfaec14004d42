import { sql } from 'kysely';
import { z } from 'zod';
import { decimalPlaces } from '../../src/model/index.js';
import { seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { warehouseWithin } from '../lib/business-records.js';
import { OK } from '../lib/core-records.js';
import { optionalIdParam, pageFields, paginate } from '../lib/paging.js';
import { answers, ok } from '../lib/route.js';
import { dbId, nullableText, pageOf, WIRE_TIME_FORMAT } from '../lib/sql.js';

/** /api/config: inventory limits per company, warehouse and waste category, which the warehouse inventories are checked against. */

const configRow = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  warehouseId: z.number().nullable(),
  ...nullableText('warehouseName', 'wasteCategory'),
  maxQuantity: z.number(),
  remark: z.string().nullable(),
  createTime: z.string(),
});

/** A quantity in tons: more than 0, at most 3 decimals. */
const tons = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?\s*$/, '请输入正确的数量')
      .transform(Number),
  ])
  .pipe(
    z
      .number()
      .gt(0, '数量必须大于0')
      .lt(1e13, '数量过大')
      .refine((n) => decimalPlaces(n) <= 3, '数量最多保留3位小数'),
  );

const configBody = z.object({
  id: dbId.optional(),
  companyId: optionalIdParam,
  warehouseId: optionalIdParam.nullable(),
  wasteCategory: z.string().trim().max(40).nullish(),
  maxQuantity: tons,
  remark: z.string().trim().max(255).nullish(),
});

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const configScope = (u: SessionUser, asked?: number) => {
    if (seesAll(u)) return asked ?? null;
    if (!u.companyId) throw forbidden('NO_COMPANY');
    return u.companyId;
  };
  const limitPermission = ['stockIn:edit', 'warehouse:edit'];

  app.get(
    '/api/config',
    answers({ session: true }, pageOf(configRow), {
      querystring: z.object({
        companyId: optionalIdParam,
        ...pageFields,
      }),
    }),
    async (req) => {
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
  );

  const saveConfig = async (u: SessionUser, body: z.infer<typeof configBody>, id?: number) => {
    let companyId = configScope(u, body.companyId);
    if (body.warehouseId) {
      const w = await warehouseWithin(db, u, body.warehouseId);
      if (!w) throw notFound('WAREHOUSE_NOT_FOUND');
      if (companyId !== null && w.company_id !== companyId) throw badRequest('WAREHOUSE_OF_OTHER_COMPANY');
      companyId = w.company_id;
    }
    if (companyId === null) throw badRequest('COMPANY_REQUIRED');
    const values = {
      company_id: companyId,
      warehouse_id: body.warehouseId ?? null,
      waste_category: body.wasteCategory || null,
      max_quantity: body.maxQuantity,
      remark: body.remark || null,
    };
    if (id === undefined) {
      const row = await db
        .insertInto('inventory_config')
        .values({ ...values, create_by: u.username })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }
    let q = db.updateTable('inventory_config').set(values).where('id', '=', id);
    if (!seesAll(u)) q = q.where('company_id', '=', u.companyId ?? -1);
    const res = await q.executeTakeFirst();
    if (!Number(res.numUpdatedRows)) throw notFound('INVENTORY_LIMIT_NOT_FOUND');
    return id;
  };

  app.post('/api/config', answers({ permission: limitPermission, log: '新增库存限额' }, ok.extend({ id: z.number() })), async (req) => ({
    ...OK,
    id: await saveConfig(currentUser(req), parseBody(configBody, req.body)),
  }));

  app.put('/api/config', answers({ permission: limitPermission, log: '修改库存限额' }, ok.extend({ id: z.number() })), async (req) => {
    const body = parseBody(configBody, req.body);
    if (!body.id) throw badRequest('ID_REQUIRED');
    return { ...OK, id: await saveConfig(currentUser(req), body, body.id) };
  });

  const deleteConfig = { config: { permission: limitPermission, log: '删除库存限额' }, schema: { response: { 200: ok } } };
  const idList = z.array(dbId, { message: '请选择要删除的数据' }).min(1, '请选择要删除的数据');
  const removeConfig = async (u: SessionUser, body: unknown) => {
    const ids = parseBody(idList, body);
    let q = db.deleteFrom('inventory_config').where('id', 'in', ids);
    if (!seesAll(u)) q = q.where('company_id', '=', u.companyId ?? -1);
    await q.execute();
    return OK;
  };
  app.delete('/api/config/', deleteConfig, async (req) => removeConfig(currentUser(req), req.body));
  app.delete('/api/config', deleteConfig, async (req) => removeConfig(currentUser(req), req.body));
}
