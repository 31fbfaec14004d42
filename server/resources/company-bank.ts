import { sql } from 'kysely';
import { companyBank } from '../../src/contract/company-bank.js';
import { ownCompanyId } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { done } from '../lib/admin-input.js';
import { registerResource, writerOf } from './register.js';

/** Bank account numbers: 8 to 30 digits; spaces between groups, as people type them, are dropped. */
const ACCOUNT_NO = /^\d{8,30}$/;

/** The bank information of the caller's company, read and saved like its other information. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, companyBank, {
    info: async (req) => {
      const companyId = ownCompanyId(currentUser(req));
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
    },
    save: async (req) => {
      const u = currentUser(req);
      const companyId = ownCompanyId(u);
      const bankName = req.body.bankName?.trim() ?? '';
      const accountName = req.body.accountName?.trim() ?? '';
      const accountNo = (req.body.accountNo ?? '').replace(/\s+/g, '');
      if (!bankName) throw badRequest('BANK_NAME_REQUIRED');
      if (!accountName) throw badRequest('BANK_ACCOUNT_NAME_REQUIRED');
      if (!accountNo) throw badRequest('BANK_ACCOUNT_NO_REQUIRED');
      if (!ACCOUNT_NO.test(accountNo)) throw badRequest('BANK_ACCOUNT_NO_INVALID');
      await sql`insert into company_bank (company_id, bank_name, account_name, account_no, update_by, update_time)
          values (${companyId}, ${bankName}, ${accountName}, ${accountNo}, ${u.username}, now())
          on conflict (company_id) do update set bank_name = excluded.bank_name, account_name = excluded.account_name,
            account_no = excluded.account_no, update_by = excluded.update_by, update_time = now()`.execute(writerOf(req));
      return done('保存成功');
    },
  });
}
