import { sql } from 'kysely';
import { testingApplications, testingBody } from '../../src/contract/testing-application.js';
import { ownCompanyId, seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { notifyCompany } from '../lib/core-records.js';
import { messageHtml } from '../lib/message-html.js';
import { registerResource, writerOf, writingContext } from './register.js';

/** companyType 2: disposal company. */
const DISPOSER = '2';

/** Testing applications: a producer asks a disposer to test samples. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, testingApplications, {
    apply: async (req) => {
      const u = currentUser(req);
      // An application is a company's: an account of none has no samples to send.
      const applicantId = ownCompanyId(u);
      const b = parseBody(testingBody, req.body);
      const disposer = await db
        .selectFrom('company')
        .select(['id', 'type', 'name'])
        .where('id', '=', b.disposerCompanyId)
        .executeTakeFirst();
      if (!disposer || disposer.type !== DISPOSER) throw badRequest('DISPOSER_REQUIRED');
      const waste = await db.selectFrom('waste_category').select('code').where('code', '=', b.wasteCategoryCode).executeTakeFirst();
      if (!waste) throw badRequest('WASTE_CODE_NOT_FOUND');
      const row = await writerOf(req)
        .insertInto('disposal_testing_application')
        .values({
          applicant_company_id: applicantId,
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
      const applicant = await db.selectFrom('company').select('name').where('id', '=', applicantId).executeTakeFirst();
      await notifyCompany(
        writingContext(ctx, req),
        disposer.id,
        messageHtml`${applicant?.name ?? u.nickName}提交了检测申请`,
        messageHtml`${b.wasteName}（${b.wasteCategoryCode}），联系人${b.linkman} ${b.phone}`,
      );
      return { status: 200, message: '申请已提交', id: row.id };
    },

    list: async (req) => {
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
  });
}
