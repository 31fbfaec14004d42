import { sql } from 'kysely';
import { visits } from '../../src/contract/visits.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { registerResource } from './register.js';

/** /api/visits: the site's daily page views and distinct addresses, counted by a public call. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, visits, {
    record: async (req) => {
      // One statement: the distinct-IP row and the day's counters move together.
      await sql`
        with new_ip as (
          insert into visit_ip (date, ip) values (current_date, ${req.ip.slice(0, 64)})
          on conflict do nothing
          returning 1
        )
        insert into visits (date, pv, ip) values (current_date, 1, (select count(*) from new_ip))
        on conflict (date) do update set pv = visits.pv + 1, ip = visits.ip + excluded.ip
      `.execute(db);
      return { status: 200 as const, message: '操作成功' };
    },

    summary: async () => {
      const { rows } = await sql<{ newIp: number; newVisits: number; recentIp: number; recentVisits: number }>`
        select coalesce(sum(ip) filter (where date = current_date), 0) as "newIp",
               coalesce(sum(pv) filter (where date = current_date), 0) as "newVisits",
               coalesce(sum(ip), 0) as "recentIp",
               coalesce(sum(pv), 0) as "recentVisits"
        from visits
        where date > current_date - 7
      `.execute(db);
      const r = rows[0];
      return {
        newIp: Number(r?.newIp ?? 0),
        newVisits: Number(r?.newVisits ?? 0),
        recentIp: Number(r?.recentIp ?? 0),
        recentVisits: Number(r?.recentVisits ?? 0),
      };
    },

    chart: async () => {
      const { rows } = await sql<{ day: string; pv: number; ip: number }>`
        select to_char(d, 'MM-DD') as day, coalesce(v.pv, 0) as pv, coalesce(v.ip, 0) as ip
        from generate_series((current_date - 6)::timestamp, current_date::timestamp, interval '1 day') as d
        left join visits v on v.date = d::date
        order by d
      `.execute(db);
      return { weekDays: rows.map((r) => r.day), visitsData: rows.map((r) => Number(r.pv)), ipData: rows.map((r) => Number(r.ip)) };
    },
  });
}
