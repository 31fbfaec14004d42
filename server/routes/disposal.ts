import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import { isRecord } from '../../src/model/index.js';
import { formatDate } from '../../src/shared/format.js';
import { MANUAL_ORDER_MESSAGES, MOBILE_RE, manualOrderProblems, manualOrderSchema, PREPAY_YES } from '../../src/shared/manual-order.js';
import type { App } from '../app.js';
import { currentUser, hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { contractWithin, nextNumber, RecordInvalid, sendInvalid, warehouseWithin } from '../lib/business-records.js';
import { businessView } from '../lib/business-views.js';
import { seesAll } from '../lib/dashboard-scope.js';
import { pageNumber } from '../lib/paging.js';
import { INT4_MAX, isDbId, wireTimeText } from '../lib/sql.js';
import { recordValues } from '../lowcode/record-input.js';
import { updateRecord } from '../lowcode/record-writes.js';
import { rowScope } from '../lowcode/row-scope.js';
import { findRecord, insertRows, type Row } from '../lowcode/rows.js';
import { changeView } from '../lowcode/view-store.js';
import { sendXlsx, writeWorkbook } from '../lowcode/xlsx.js';

/**
 * Disposal orders and inventory written by the core pages rather than the generated ones: the manual
 * disposal order, company inventory (stock-in records that are in stock), quotes on inquiries, testing
 * applications and QR label codes. Records go into the business views' tables through the views' own
 * form rules, so they appear in the generated lists and in the dashboards like any other.
 */

const OK = { status: 200, message: '操作成功' };
const ok = z.object({ status: z.number(), message: z.string() });

/** stockStatus 1: in stock. Company inventory records always carry it. */
const IN_STOCK = '1';
/** orderStatus 0: to be confirmed. */
const NEW_ORDER = '0';
/** yesOrNo values. */
const YES = '1';
const NO = '2';
/** inquiryStatus: 0 awaiting a quote, 1 quoted. */
const QUOTABLE = ['0', '1'];
const QUOTED = '1';
/** companyType 2: disposal company. */
const DISPOSER = '2';
const MAX_LABELS = 500;

const bodyRecord = (body: unknown): Row => {
  if (!isRecord(body)) throw badRequest('请求体应为 JSON 对象');
  return body;
};

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const requireView = async (name: 'disposalOrder' | 'stockIn' | 'disposalInquiry') => {
    const view = await businessView(ctx, name);
    if (!view) throw notFound('业务视图不存在');
    return view;
  };

  /** A warehouse the user may use (its company's own, any for those who see all); another's is missing. */
  const ownWarehouse = async (u: SessionUser, warehouseId: unknown) => {
    const id = Number(warehouseId);
    if (!isDbId(id)) return null;
    const w = await warehouseWithin(db, u, id);
    if (!w) throw notFound('仓库不存在');
    return w;
  };

  // ----- manual disposal order -----

  app.get(
    '/api/disposalOrder/addBtnShow',
    {
      config: { session: true },
      schema: { response: { 200: z.object({ status: z.number(), addBtnShow: z.union([z.literal(0), z.literal(1)]) }) } },
    },
    async (req) => {
      const u = currentUser(req);
      return { status: 200, addBtnShow: hasPermission(u.roles, 'disposalOrder:add') ? (1 as const) : (0 as const) };
    },
  );

  app.post(
    '/api/disposalOrder/insertManualDisposalOrder',
    { config: { permission: 'disposalOrder:add', log: '新增手工处置单' } },
    async (req, reply) => {
      const u = currentUser(req);
      const input = bodyRecord(req.body);
      const problems = manualOrderProblems(input);
      if (problems.length) return reply.status(400).send({ status: 400, message: problems[0]!.message, errors: problems });
      const form = manualOrderSchema.parse(input);
      const view = await requireView('disposalOrder');

      // Party A: the contracting company, by id, department code or credit code.
      const key = form.partyACompany;
      const asId = /^\d{1,9}$/.test(key) ? Number(key) : -1;
      const partyA = await db
        .selectFrom('company')
        .select(['id', 'name', 'region', 'region_fmt'])
        .where((eb) => eb.or([eb('id', '=', asId), eb('dept_code', '=', key), eb('credit_code', '=', key)]))
        .orderBy('id')
        .executeTakeFirst();
      if (!partyA) throw badRequest('签约企业不存在');
      // Party B: the unloading point's company, else the user's own.
      const warehouse = await ownWarehouse(u, form.partyBWarehouseId);
      const partyBName =
        warehouse?.company_name ??
        (u.companyId ? (await db.selectFrom('company').select('name').where('id', '=', u.companyId).executeTakeFirst())?.name : undefined);
      if (!partyBName) throw badRequest('请选择卸货点');
      let contractNo = form.contractNo ?? null;
      if (form.contractId) {
        const c = await contractWithin(db, u, form.contractId);
        if (!c) throw notFound('合同不存在');
        if (c.party_a_company !== partyA.id) throw badRequest('合同不属于所选签约企业');
        contractNo = c.contract_no;
      }
      const waste = await db
        .selectFrom('waste_category')
        .select(['code', 'category'])
        .where('code', '=', form.wasteCategoryCode)
        .executeTakeFirst();
      if (!waste) throw badRequest('危废代码不存在');

      const orderNo = await nextNumber(db, view, 'orderNo', 'CZ');
      const record: Row = {
        orderNo,
        contractNo,
        producerName: form.partyACompanyName || partyA.name,
        producerRegion: form.partyARegion ?? partyA.region,
        producerRegionFmt: form.partyARegionFmt ?? partyA.region_fmt,
        disposerName: partyBName,
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
      let values: Row;
      try {
        values = recordValues(view, record);
      } catch (e) {
        if (e instanceof RecordInvalid) return sendInvalid(reply, e);
        throw e;
      }
      // amount is read-only on the order page: the back end sets it.
      if (view.columns.some((c) => c.name === 'amount')) values.amount = form.amount;
      const id = await db.transaction().execute(async (trx) => {
        const [newId] = await insertRows(trx, view, [values], u);
        await trx
          .insertInto('disposal_order_manual')
          .values({
            record_id: newId!,
            view_id: view.id,
            payload: JSON.stringify({ ...form, partyACompanyId: partyA.id, partyBCompanyName: partyBName, orderNo }),
            create_by: u.username,
          })
          .execute();
        return newId!;
      });
      changeView(ctx, view.id);
      return { ...OK, id, orderNo, amount: form.amount };
    },
  );

  // ----- company inventory: stock-in records that are in stock -----

  const inventoryRecord = async (u: SessionUser, input: Row): Promise<Row> => {
    const record: Row = { ...input, status: IN_STOCK };
    delete record.id;
    await ownWarehouse(u, record.warehouseId);
    return record;
  };

  app.post('/api/companyInventory', { config: { permission: 'stockIn:add', log: '新增企业库存' } }, async (req, reply) => {
    const u = currentUser(req);
    const view = await requireView('stockIn');
    const record = await inventoryRecord(u, bodyRecord(req.body));
    if (record.stockNo === undefined || record.stockNo === null || record.stockNo === '')
      record.stockNo = await nextNumber(db, view, 'stockNo', 'RK');
    record.inTime ??= formatDate(Date.now(), 'YYYY-MM-DD HH:mm:ss');
    record.handler ??= u.nickName;
    try {
      const [id] = await insertRows(db, view, [recordValues(view, record)], u);
      changeView(ctx, view.id);
      return { ...OK, id, stockNo: record.stockNo };
    } catch (e) {
      if (e instanceof RecordInvalid) return sendInvalid(reply, e);
      throw e;
    }
  });

  app.post('/api/companyInventory/update', { config: { permission: 'stockIn:edit', log: '修改企业库存' } }, async (req, reply) => {
    const u = currentUser(req);
    const view = await requireView('stockIn');
    const body = bodyRecord(req.body);
    const id = Number(body.id);
    if (!Number.isSafeInteger(id) || id <= 0) throw badRequest('id 不能为空');
    // A record outside the user's scope is answered as missing, as /api/general does.
    const scope = await rowScope(ctx, view, u);
    const existing = await findRecord(db, view, id, scope);
    if (!existing) throw notFound('库存记录不存在');
    const record = await inventoryRecord(u, body);
    let values: Row;
    try {
      values = recordValues(view, record, existing);
    } catch (e) {
      if (e instanceof RecordInvalid) return sendInvalid(reply, e);
      throw e;
    }
    if (!(await updateRecord(ctx, view, id, values, scope))) throw notFound('库存记录不存在');
    return OK;
  });

  // ----- a disposer quotes on an inquiry -----

  app.post(
    '/api/disposalQuotePirce/quotedPrice',
    {
      config: { permission: 'disposalInquiry:edit', log: '处置报价' },
    },
    async (req, reply) => {
      const u = currentUser(req);
      const body = parseBody(
        z.object({
          id: z.coerce
            .number({ message: '请选择询价单' })
            .int({ message: '请选择询价单' })
            .positive({ message: '请选择询价单' })
            .max(INT4_MAX, { message: '请选择询价单' }),
          quotedPrice: z.union([z.number(), z.string()], { message: '请输入报价单价' }),
        }),
        req.body,
      );
      const view = await requireView('disposalInquiry');
      // The asked disposer is a party to the inquiry, so it is in its scope; any other inquiry is missing.
      const scope = await rowScope(ctx, view, u);
      const existing = await findRecord(db, view, body.id, scope);
      if (!existing) throw notFound('询价单不存在');
      // The asker sees its own inquiry, but only the asked company quotes.
      if (!seesAll(u) && Number(existing.companyId) !== u.companyId) throw forbidden('只能对发给本企业的询价报价');
      if (!QUOTABLE.includes(String(existing.inquiryStatus ?? ''))) throw badRequest('询价已关闭，不能报价');
      const price = body.quotedPrice;
      if (price === '' || price === null) throw badRequest('请输入报价单价');
      let values: Row;
      try {
        values = recordValues(
          view,
          { quotedPrice: price, quoteTime: formatDate(Date.now(), 'YYYY-MM-DD HH:mm:ss'), inquiryStatus: QUOTED },
          existing,
        );
      } catch (e) {
        if (e instanceof RecordInvalid) return sendInvalid(reply, e);
        throw e;
      }
      if (!(await updateRecord(ctx, view, body.id, values, scope))) throw notFound('询价单不存在');
      // The asker's company hears of the quote.
      const asker = await db
        .selectFrom('sys_user')
        .select('company_id')
        .where('username', '=', String(existing.createBy ?? ''))
        .executeTakeFirst();
      if (asker?.company_id) await notifyCompany(asker.company_id, `询价单${existing.inquiryNo ?? ''}已报价`, `报价单价：${price} 元/吨`);
      return OK;
    },
  );

  /** A system message to every active user of a company, pushed live. */
  async function notifyCompany(companyId: number, title: string, content: string) {
    const users = await db
      .selectFrom('sys_user')
      .select(['id', 'username'])
      .where('company_id', '=', companyId)
      .where('status', '=', 0)
      .execute();
    if (!users.length) return;
    await db
      .insertInto('sys_message')
      .values(users.map((x) => ({ user_id: x.id, title, content })))
      .execute();
    for (const x of users)
      ctx.realtime.push(x.username, { sender: 'system', reception: x.username, body: { noticeInfo: title }, flag: 'sysMessage' });
  }

  // ----- testing applications (a producer asks a disposer to test samples) -----

  const testingBody = z.object({
    disposerCompanyId: z.coerce
      .number({ message: '请选择处置企业' })
      .int()
      .positive({ message: '请选择处置企业' })
      .max(INT4_MAX, { message: '请选择处置企业' }),
    wasteCategoryCode: z.string({ message: '请输入危废代码' }).trim().min(1, '请输入危废代码').max(20),
    wasteName: z.string({ message: '请输入危废名称' }).trim().min(1, '请输入危废名称').max(255),
    quantity: z.coerce.number().positive('数量必须大于0').max(1e9).optional(),
    sampleCount: z.coerce.number().int().min(1, '样品数量至少为1').max(1000).optional(),
    linkman: z.string({ message: '请输入联系人' }).trim().min(1, '请输入联系人').max(100),
    phone: z.string({ message: '请输入手机号' }).trim().min(1, '请输入手机号').regex(MOBILE_RE, MANUAL_ORDER_MESSAGES.phone),
    remark: z.string().trim().max(1024).nullish(),
  });

  app.post(
    '/api/dispoaslTestingApplication/apply',
    {
      config: {
        session: true,
        log: '处置检测申请',
      },
      schema: { response: { 200: ok.extend({ id: z.number() }) } },
    },
    async (req) => {
      const u = currentUser(req);
      const b = parseBody(testingBody, req.body);
      const disposer = await db
        .selectFrom('company')
        .select(['id', 'type', 'name'])
        .where('id', '=', b.disposerCompanyId)
        .executeTakeFirst();
      if (!disposer || disposer.type !== DISPOSER) throw badRequest('请选择处置企业');
      const waste = await db.selectFrom('waste_category').select('code').where('code', '=', b.wasteCategoryCode).executeTakeFirst();
      if (!waste) throw badRequest('危废代码不存在');
      const row = await db
        .insertInto('disposal_testing_application')
        .values({
          applicant_company_id: u.companyId,
          disposer_company_id: disposer.id,
          waste_category_code: b.wasteCategoryCode,
          waste_name: b.wasteName,
          quantity: b.quantity ?? null,
          sample_count: b.sampleCount ?? 1,
          linkman: b.linkman,
          phone: b.phone,
          remark: b.remark || null,
          user_id: u.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const applicant = u.companyId
        ? await db.selectFrom('company').select('name').where('id', '=', u.companyId).executeTakeFirst()
        : undefined;
      await notifyCompany(
        disposer.id,
        `${applicant?.name ?? u.nickName}提交了检测申请`,
        `${b.wasteName}（${b.wasteCategoryCode}），联系人${b.linkman} ${b.phone}`,
      );
      return { status: 200, message: '申请已提交', id: row.id };
    },
  );

  app.get(
    '/api/dispoaslTestingApplication',
    {
      config: { session: true },
      schema: {
        querystring: z.object({
          page: pageNumber.optional(),
          size: z.coerce.number().int().min(1).max(1000).optional(),
        }),
      },
    },
    async (req) => {
      const u = currentUser(req);
      let q = db
        .selectFrom('disposal_testing_application as t')
        .leftJoin('company as a', 'a.id', 't.applicant_company_id')
        .innerJoin('company as d', 'd.id', 't.disposer_company_id');
      // Applicants see theirs, disposers those sent to them.
      if (!seesAll(u)) {
        const own = u.companyId ?? -1;
        q = q.where((eb) => eb.or([eb('t.applicant_company_id', '=', own), eb('t.disposer_company_id', '=', own)]));
      }
      const size = req.query.size ?? 10;
      const page = req.query.page ?? 0;
      const [rows, total] = await Promise.all([
        q
          .select([
            't.id',
            'a.name as applicantName',
            't.disposer_company_id as disposerCompanyId',
            'd.name as disposerName',
            't.waste_category_code as wasteCategoryCode',
            't.waste_name as wasteName',
            't.quantity',
            't.sample_count as sampleCount',
            't.linkman',
            't.phone',
            't.remark',
            't.status',
            sql<string>`to_char(t.create_time, 'YYYY-MM-DD HH24:MI:SS')`.as('createTime'),
          ])
          .orderBy('t.id', 'desc')
          .limit(size)
          .offset(page * size)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { content: rows, totalElements: Number(total.n) };
    },
  );

  // ----- QR label codes -----

  app.get(
    '/api/materialsCode/saveBatch',
    {
      config: { session: true },
      schema: {
        querystring: z.object({
          createNum: z.coerce.number().int().min(1, '请输入生成数量').max(MAX_LABELS, `一次最多生成${MAX_LABELS}个`),
        }),
        response: {
          200: z.object({
            status: z.number(),
            data: z.array(z.object({ codeNum: z.string(), operateDept: z.string().nullable(), createTime: z.string() })),
          }),
        },
      },
    },
    async (req) => {
      const u = currentUser(req);
      const dept = u.deptId ? await db.selectFrom('sys_dept').select('name').where('id', '=', u.deptId).executeTakeFirst() : undefined;
      const day = formatDate(Date.now(), 'YYYYMMDD');
      const rows = Array.from({ length: req.query.createNum }, () => ({
        code_num: `${day}${randomBytes(5).toString('hex').toUpperCase()}`,
        operate_dept: dept?.name ?? null,
        user_id: u.id,
      }));
      const data = await db
        .insertInto('materials_code')
        .values(rows)
        .returning([
          'code_num as codeNum',
          'operate_dept as operateDept',
          sql<string>`to_char(create_time, 'YYYY-MM-DD HH24:MI:SS')`.as('createTime'),
        ])
        .execute();
      return { status: 200, data };
    },
  );

  // 下载 of the print page: the list of one batch as a spreadsheet. A batch is one saveBatch call:
  // its codes share the user and the createTime it answered.
  app.get(
    '/api/materialsCode/download',
    {
      config: { session: true },
      schema: {
        querystring: z.object({
          createTime: wireTimeText('createTime 应为 YYYY-MM-DD HH:mm:ss'),
        }),
      },
    },
    async (req, reply) => {
      const u = currentUser(req);
      const rows = await db
        .selectFrom('materials_code')
        .select([
          'code_num as codeNum',
          'operate_dept as operateDept',
          sql<string>`to_char(create_time, 'YYYY-MM-DD HH24:MI:SS')`.as('createTime'),
        ])
        .where('user_id', '=', u.id)
        .where(sql<boolean>`date_trunc('second', create_time) = ${req.query.createTime}::timestamp`)
        .orderBy('id')
        .execute();
      if (!rows.length) throw notFound('没有找到这批二维码');
      const data = rows.map((r) => [r.codeNum, r.operateDept ?? '', r.createTime, `${r.codeNum}_${r.operateDept ?? ''}_${r.createTime}`]);
      const name = `二维码清单_${req.query.createTime.replace(/\D/g, '')}.xlsx`;
      return sendXlsx(reply, name, await writeWorkbook('二维码清单', ['编码', '操作部门', '生成时间', '二维码内容'], data));
    },
  );
}
