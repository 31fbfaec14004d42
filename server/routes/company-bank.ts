import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden } from '../errors.js';
import { done } from '../lib/admin-input.js';
import { answers, ok } from '../lib/route.js';

/**
 * /api/companyBank: the bank information of the caller's company, its settlement account (开户银行,
 * 账户名称, 银行账号). A signed-in user of a company reads and saves it, like the company's other
 * information (/api/companyApi/update); a user without a company has none and is refused.
 */

const bankInfo = z.object({
  companyId: z.number(),
  bankName: z.string().nullable(),
  accountName: z.string().nullable(),
  accountNo: z.string().nullable(),
  updateTime: z.string().nullable(),
});

const input = z.object({
  bankName: z.string().max(100, '开户银行不能超过100个字符').optional(),
  accountName: z.string().max(100, '账户名称不能超过100个字符').optional(),
  accountNo: z.string().max(40, '银行账号格式不正确').optional(),
});

/** Bank account numbers: 8 to 30 digits; spaces between groups, as people type them, are dropped. */
const ACCOUNT_NO = /^\d{8,30}$/;

const companyOf = (u: SessionUser): number => {
  if (u.companyId === null || u.companyId === undefined) throw forbidden('NO_COMPANY');
  return u.companyId;
};

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  app.get('/api/companyBank/info', answers({ session: true }, bankInfo), async (req) => {
    const companyId = companyOf(currentUser(req));
    const row = await sql<{ bank_name: string; account_name: string; account_no: string; update_time: string }>`
      select bank_name, account_name, account_no, to_char(update_time, 'YYYY-MM-DD HH24:MI:SS') as update_time
      from company_bank where company_id = ${companyId}`.execute(db);
    const r = row.rows[0];
    return {
      companyId,
      bankName: r?.bank_name ?? null,
      accountName: r?.account_name ?? null,
      accountNo: r?.account_no ?? null,
      updateTime: r?.update_time ?? null,
    };
  });

  app.put('/api/companyBank', answers({ session: true, log: '修改银行信息' }, ok, { body: input }), async (req) => {
    const u = currentUser(req);
    const companyId = companyOf(u);
    const bankName = req.body.bankName?.trim() ?? '';
    const accountName = req.body.accountName?.trim() ?? '';
    const accountNo = (req.body.accountNo ?? '').replace(/\s+/g, '');
    if (!bankName) throw badRequest('请输入开户银行');
    if (!accountName) throw badRequest('请输入账户名称');
    if (!accountNo) throw badRequest('请输入银行账号');
    if (!ACCOUNT_NO.test(accountNo)) throw badRequest('银行账号格式不正确');
    await sql`insert into company_bank (company_id, bank_name, account_name, account_no, update_by, update_time)
        values (${companyId}, ${bankName}, ${accountName}, ${accountNo}, ${u.username}, now())
        on conflict (company_id) do update set bank_name = excluded.bank_name, account_name = excluded.account_name,
          account_no = excluded.account_no, update_by = excluded.update_by, update_time = now()`.execute(db);
    return done('保存成功');
  });
}
