import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { answers } from '../lib/route.js';
import { dbId, wireTime } from '../lib/sql.js';

/**
 * The personal centre's own reads and the leave-message inbox's reading: the cities of the user's
 * province with the platform's companies in each, and marking one leave message read.
 */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  // The province is the user's company's; without one, the province where most live companies are.
  app.get(
    '/api/users/center/cities',
    answers(
      { session: true },
      z.object({
        province: z.object({ code: z.string(), name: z.string() }).nullable(),
        cities: z.array(z.object({ code: z.string(), name: z.string(), companies: z.number() })),
      }),
    ),
    async (req) => {
      const me = currentUser(req);
      const own = await db
        .selectFrom('sys_user as u')
        .innerJoin('company as c', 'c.id', 'u.company_id')
        .select(sql<string>`split_part(c.region, ',', 1)`.as('code'))
        .where('u.id', '=', me.id)
        .where('c.region', 'is not', null)
        .executeTakeFirst();
      let provinceCode = own?.code || null;
      if (!provinceCode) {
        const busiest = await db
          .selectFrom('company')
          .select(sql<string>`split_part(region, ',', 1)`.as('code'))
          .where('status', '=', 1)
          .where('region', 'is not', null)
          .groupBy(sql`split_part(region, ',', 1)`)
          .orderBy(sql`count(*)`, 'desc')
          .orderBy(sql`split_part(region, ',', 1)`)
          .executeTakeFirst();
        provinceCode = busiest?.code || null;
      }
      const province = provinceCode
        ? await db.selectFrom('region').select(['code', 'name']).where('code', '=', provinceCode).where('level', '=', 1).executeTakeFirst()
        : undefined;
      if (!province) return { province: null, cities: [] };
      const rows = await db
        .selectFrom('region as r')
        .leftJoin('company as c', (j) =>
          j.on('c.status', '=', 1).on(sql<boolean>`split_part(c.region, ',', 2) = r.code and split_part(c.region, ',', 1) = r.parent_code`),
        )
        .select(['r.code', 'r.name', sql<number>`count(c.id)::int`.as('companies')])
        .where('r.parent_code', '=', province.code)
        .groupBy(['r.code', 'r.name'])
        .orderBy(sql`count(c.id)`, 'desc')
        .orderBy('r.code')
        .execute();
      return { province, cities: rows.map((r) => ({ code: r.code, name: r.name, companies: Number(r.companies) })) };
    },
  );

  app.get(
    '/api/leaveMessage/readOne',
    answers(
      { session: true },
      z.object({
        status: z.literal(200),
        message: z.string(),
        data: z.object({ id: z.number(), content: z.string(), senderName: z.string(), createTime: z.string() }),
      }),
      { querystring: z.object({ id: dbId }) },
    ),
    async (req) => {
      const row = await db
        .updateTable('leave_message')
        .set({ have_read: true })
        .where('id', '=', req.query.id)
        .where('user_id', '=', currentUser(req).id)
        .returning(['id', 'content', 'sender_name as senderName', wireTime('create_time').as('createTime')])
        .executeTakeFirst();
      if (!row) throw notFound('LEAVE_MESSAGE_NOT_FOUND');
      return { status: 200 as const, message: '操作成功', data: row };
    },
  );
}
