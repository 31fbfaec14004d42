import { isRecord } from '../../src/model/index.js';
import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import type { Row } from '../lowcode/rows.js';
import { warehouseWithin } from './business-records.js';
import { businessView } from './business-views.js';
import { type MessageHtml, messageHtml, plainText } from './message-html.js';
import { isDbId } from './sql.js';

/**
 * Helpers of the core pages that write business records rather than the generated ones (manual
 * disposal orders, company inventory, quotes, testing applications): records go into the business
 * views' tables through the views' own form rules.
 */

export const OK = { status: 200, message: '操作成功' };

/** The JSON object a write sends; anything else is a 400. */
export const bodyRecord = (body: unknown): Row => {
  if (!isRecord(body)) throw badRequest('BODY_NOT_OBJECT');
  return body;
};

/** The business view behind a core page; a missing one is a 404. */
export async function requireView(ctx: AppContext, name: 'disposalOrder' | 'stockIn' | 'disposalInquiry') {
  const view = await businessView(ctx, name);
  if (!view) throw notFound('BUSINESS_VIEW_NOT_FOUND');
  return view;
}

/**
 * A warehouse the user may use (its company's own, any for those who see all); another's is missing.
 * None given is null; an id that can name no warehouse is missing too, never read as none.
 */
export async function ownWarehouse(ctx: AppContext, u: SessionUser, warehouseId: unknown) {
  if (warehouseId === undefined || warehouseId === null || warehouseId === '') return null;
  const id = Number(warehouseId);
  if (!isDbId(id)) throw notFound('WAREHOUSE_NOT_FOUND');
  const w = await warehouseWithin(ctx.db, u, id);
  if (!w) throw notFound('WAREHOUSE_NOT_FOUND');
  return w;
}

/** A system message to every active user of a company, pushed live; what users wrote goes in through messageHtml. */
export async function notifyCompany(ctx: AppContext, companyId: number, title: MessageHtml, content: MessageHtml) {
  const { db } = ctx;
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
    ctx.realtime.push(x.id, { sender: 'system', reception: x.username, body: { noticeInfo: plainText(title) }, flag: 'sysMessage' });
}

/** inquiryStatus of an inquiry its asked disposer has quoted. */
export const INQUIRY_QUOTED = '1';

/**
 * Tells the company an inquiry was written in (not whoever holds its author's username now) that its
 * asked disposer quoted it, whichever call wrote the quote.
 */
export async function noticeQuoted(ctx: AppContext, askerCompanyId: number | null, inquiryNo: unknown, price: unknown): Promise<void> {
  if (askerCompanyId === null) return;
  await notifyCompany(
    ctx,
    askerCompanyId,
    messageHtml`询价单${String(inquiryNo ?? '')}已报价`,
    messageHtml`报价单价：${String(price ?? '')} 元/吨`,
  );
}
