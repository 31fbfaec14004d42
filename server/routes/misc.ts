import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { consumeCaptcha } from '../lib/captcha.js';

const MOBILE = /^1[3-9]\d{9}$/;

/** Form values may arrive as strings or numbers; absent, null and blank all read as ''. */
const field = z
  .union([z.string(), z.number()])
  .nullable()
  .optional()
  .transform((v) => (v === null || v === undefined ? '' : String(v).trim()));

const applyBody = z.object({
  name: field,
  type: field,
  comtype: field,
  region: field,
  regionFmt: field,
  applicant: field,
  phone: field,
  source: field,
  code: field,
  uuid: field,
});

const ok = z.object({ status: z.literal(200), message: z.string() });

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  app.post(
    '/api/companyApplication/insert',
    { config: { public: true }, schema: { body: applyBody, response: { 200: ok } } },
    async (req) => {
      const b = req.body;
      if (!b.name) throw badRequest('企业名称不能为空');
      if (b.name.length > 255) throw badRequest('企业名称不能超过255个字符');
      if (!b.type) throw badRequest('请选择企业类型');
      if (!b.region) throw badRequest('请选择企业地址');
      if (!b.applicant) throw badRequest('请输入申请人姓名');
      if (b.applicant.length > 100) throw badRequest('申请人姓名不能超过100个字符');
      if (!b.phone) throw badRequest('请输入手机号');
      if (!MOBILE.test(b.phone)) throw badRequest('手机号格式错误');
      if (!b.code) throw badRequest('请输入验证码');
      await consumeCaptcha(db, b.uuid, b.code);

      const type = await db
        .selectFrom('sys_dict_detail as d')
        .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
        .select(['d.value', 'd.label'])
        .where('t.name', '=', 'companyType')
        .where('d.value', '=', b.type)
        .executeTakeFirst();
      if (!type) throw badRequest('企业类型不正确');

      // The region must be a real path down the tree to a district; its labels are
      // taken from the table rather than from the client.
      const codes = b.region.split(',').map((s) => s.trim());
      if (codes.length > 3 || codes.some((c) => !/^\d{6}$/.test(c))) throw badRequest('企业地址不正确');
      const rows = await db.selectFrom('region').select(['code', 'parent_code', 'name']).where('code', 'in', codes).execute();
      const byCode = new Map(rows.map((r) => [r.code, r]));
      const path = codes.map((c) => byCode.get(c));
      const chained = path.every((r, i) => r && (i === 0 ? r.parent_code === null : r.parent_code === codes[i - 1]));
      if (!chained) throw badRequest('企业地址不正确');
      const deeper = await db.selectFrom('region').select('code').where('parent_code', '=', codes.at(-1)!).limit(1).executeTakeFirst();
      if (deeper) throw badRequest('请选择到区县一级的企业地址');
      const regionFmt = path.map((r) => r!.name).join('/');

      const pendingMessage = '该企业已提交申请，请耐心等待';
      const pending = await db
        .selectFrom('company_application')
        .select('id')
        .where('name', '=', b.name)
        .where('status', '=', 0)
        .executeTakeFirst();
      if (pending) throw badRequest(pendingMessage);
      try {
        await db
          .insertInto('company_application')
          .values({
            name: b.name,
            type: type.value,
            comtype: type.label,
            region: codes.join(','),
            region_fmt: regionFmt,
            applicant: b.applicant,
            phone: b.phone,
            source: 2,
          })
          .execute();
      } catch (e) {
        // A concurrent application for the same name lost the race on the partial unique index.
        if ((e as { code?: string }).code === '23505') throw badRequest(pendingMessage);
        throw e;
      }
      return { status: 200 as const, message: '申请已经提交，请耐心等待' };
    },
  );

  app.get(
    '/api/privacyPolicy/preview',
    {
      config: { public: true },
      schema: {
        querystring: z.object({ type: z.string().optional() }),
        response: {
          200: z.object({ status: z.literal(200), data: z.object({ type: z.number(), title: z.string(), content: z.string() }) }),
        },
      },
    },
    async (req) => {
      const type = req.query.type?.trim() ?? '';
      const row = /^[1-9]$/.test(type)
        ? await db.selectFrom('privacy_policy').select(['type', 'title', 'content']).where('type', '=', Number(type)).executeTakeFirst()
        : undefined;
      if (!row) throw notFound('协议不存在');
      return { status: 200 as const, data: row };
    },
  );

  app.post('/api/visits', { config: { public: true }, schema: { response: { 200: ok } } }, async (req) => {
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
  });

  app.get(
    '/api/visits',
    {
      schema: {
        response: { 200: z.object({ newIp: z.number(), newVisits: z.number(), recentIp: z.number(), recentVisits: z.number() }) },
      },
    },
    async () => {
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
  );

  app.get(
    '/api/visits/chartData',
    {
      schema: {
        response: { 200: z.object({ weekDays: z.array(z.string()), visitsData: z.array(z.number()), ipData: z.array(z.number()) }) },
      },
    },
    async () => {
      const { rows } = await sql<{ day: string; pv: number; ip: number }>`
        select to_char(d, 'MM-DD') as day, coalesce(v.pv, 0) as pv, coalesce(v.ip, 0) as ip
        from generate_series((current_date - 6)::timestamp, current_date::timestamp, interval '1 day') as d
        left join visits v on v.date = d::date
        order by d
      `.execute(db);
      return { weekDays: rows.map((r) => r.day), visitsData: rows.map((r) => Number(r.pv)), ipData: rows.map((r) => Number(r.ip)) };
    },
  );
}
