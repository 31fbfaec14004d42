import { type SqlBool, sql } from 'kysely';
import { companyContracts } from '../../src/contract/company-contracts.js';
import { requireCompanyScope, seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { sameCode } from '../lib/company-codes.js';
import { registerResource } from './register.js';

/** The dashboard counts the contracts that end within this many days. */
const EXPIRING_DAYS = 30;

/** Company contracts: the effective ones with a party A, and how many end soon. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  registerResource(app, companyContracts, {
    effective: async (req) => {
      const u = requireCompanyScope(currentUser(req));
      const key = req.query.partyACompany?.trim();
      if (!key) throw badRequest('PARTY_A_REQUIRED');
      // The company picker may hand over the id or the company's code (dept or credit code).
      const asId = /^\d{1,9}$/.test(key) ? Number(key) : -1;
      let q = db
        .selectFrom('company_contract as c')
        .innerJoin('company as a', 'a.id', 'c.party_a_company')
        .select([
          'c.id',
          'c.contract_no as contractNo',
          'c.party_a_name as partyAName',
          'c.party_a_phone as partyAPhone',
          'c.party_a_region_fmt as partyARegionFmt',
          'c.party_a_address as partyAAddress',
          'c.party_a_user_id as partyAUserId',
          'c.party_a_region as partyARegion',
          sql<string>`to_char(c.begin_time, 'YYYY-MM-DD')`.as('beginTime'),
          sql<string>`to_char(c.end_time, 'YYYY-MM-DD')`.as('endTime'),
          'c.file_path as filePath',
        ])
        .where((eb) => eb.or([eb('a.id', '=', asId), sameCode('a.dept_code', key), sameCode('a.credit_code', key)]))
        .where(sql<SqlBool>`c.end_time >= current_date`);
      // Others only see the contracts their own company is a party to.
      if (!seesAll(u)) {
        const own = u.companyId ?? -1;
        q = q.where((eb) => eb.or([eb('c.party_a_company', '=', own), eb('c.party_b_company', '=', own)]));
      }
      const data = await q.orderBy('c.end_time').orderBy('c.id').execute();
      return { status: 200 as const, data };
    },
    expiring: async (req) => {
      const u = currentUser(req);
      let q = db
        .selectFrom('company_contract as c')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(sql<SqlBool>`c.end_time between current_date and current_date + ${EXPIRING_DAYS}::integer`);
      if (u.companyId) {
        const own = u.companyId;
        q = q.where((eb) => eb.or([eb('c.party_a_company', '=', own), eb('c.party_b_company', '=', own)]));
      } else if (!seesAll(u)) {
        return { count: 0 };
      }
      const row = await q.executeTakeFirstOrThrow();
      return { count: Number(row.n) };
    },
  });
}
