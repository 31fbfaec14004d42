import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * Each demo account sees and changes only the records of its data scope: its list totals equal the
 * rows its scope allows, counted here in SQL written independently of the server's scope code, and a
 * record outside the scope answers 404 to every call, as a missing one does.
 */

let server: TestServer;
const as: Record<string, ApiClient> = {};
const DEMO = ['admin', 'supervisor', 'producer', 'disposer', 'logistics', 'collector'] as const;
type Demo = (typeof DEMO)[number];
const VIEWS = [12, 13, 14, 15, 16, 17, 18, 19, 20] as const;

interface Account {
  username: string;
  companyId: number | null;
  deptId: number | null;
  all: boolean;
}
const accounts = new Map<Demo, Account>();

beforeAll(async () => {
  server = await startTestServer();
  for (const name of DEMO) as[name] = await server.login(name);
  const rows = await server.ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
    .select(['u.username', 'u.company_id', 'u.dept_id', 'u.is_admin', 'd.code'])
    .where('u.username', 'in', [...DEMO])
    .execute();
  for (const r of rows) {
    accounts.set(r.username as Demo, {
      username: r.username,
      companyId: r.company_id,
      deptId: r.dept_id,
      all: r.is_admin || r.code === '01',
    });
  }
});
afterAll(async () => {
  await server?.close();
});

/** The rows of a view's table an account may see, as a SQL condition written out per view. */
function allowed(viewId: number, a: Account) {
  if (viewId === 18) return sql`("deptId" = ${a.deptId ?? -1} or create_user = (select id from sys_user where username = ${a.username}))`;
  if (a.all) return sql`true`;
  const c = a.companyId ?? -1;
  const own = sql`create_company = ${c}`;
  switch (viewId) {
    case 15:
      return sql`(${own} or "companyId" = ${c})`;
    case 16:
      return sql`(${own} or "partyAId" = ${c} or "partyBId" = ${c})`;
    case 19:
      return sql`(${own} or "producerId" = ${c} or "disposerId" = ${c} or "carrierId" = ${c})`;
    case 20:
      return sql`(${own} or "disposalOrderId" in (select id from lc_view_19 where "producerId" = ${c} or "disposerId" = ${c} or "carrierId" = ${c}))`;
    default:
      return own;
  }
}

async function count(viewId: number, where: ReturnType<typeof sql>): Promise<number> {
  const res = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(`lc_view_${viewId}`)} where ${where}`.execute(
    server.ctx.db,
  );
  return Number(res.rows[0]?.n ?? 0);
}

/** An id of the view's table that the account may not see, and one it may. */
async function idsFor(viewId: number, a: Account): Promise<{ outside: number; inside: number | undefined }> {
  const table = sql.table(`lc_view_${viewId}`);
  const out = await sql<{
    id: number;
  }>`select id from ${table} where not coalesce(${allowed(viewId, a)}, false) order by id limit 1`.execute(server.ctx.db);
  const inside = await sql<{ id: number }>`select id from ${table} where ${allowed(viewId, a)} order by id limit 1`.execute(server.ctx.db);
  const outside = out.rows[0]?.id;
  if (outside === undefined) throw new Error(`view ${viewId}: every record is within ${a.username}'s scope`);
  return { outside: Number(outside), inside: inside.rows[0] ? Number(inside.rows[0].id) : undefined };
}

describe('list totals', () => {
  it('equal, for every demo account and every view it lists, the rows its scope allows', async () => {
    const seen: string[] = [];
    for (const name of DEMO) {
      const a = accounts.get(name) as Account;
      for (const viewId of VIEWS) {
        const res = await as[name]!.get(`/api/general/list/${viewId}`, { page: 0, size: 1000 });
        if (res.status === 403) continue;
        expect(res.status).toBe(200);
        const expected = await count(viewId, allowed(viewId, a));
        expect({ name, viewId, total: res.body.totalElements }).toEqual({ name, viewId, total: expected });
        expect(res.body.content).toHaveLength(Math.min(expected, 1000));
        seen.push(`${name}:${viewId}:${expected}`);
      }
    }
    // The company accounts list some of their own records and not everyone's.
    for (const name of ['producer', 'disposer', 'logistics', 'collector'] as const) {
      const mine = seen.filter((s) => s.startsWith(`${name}:`));
      expect(mine.length, name).toBeGreaterThan(1);
      expect(
        mine.some((s) => Number(s.split(':')[2]) > 0),
        name,
      ).toBe(true);
    }
  });

  it('never answers one company a page cached for another', async () => {
    const query = { page: 0, size: 10, sort: 'id,desc' };
    const admin = await as.admin!.get('/api/general/list/12', query);
    const producer = await as.producer!.get('/api/general/list/12', query);
    const collector = await as.collector!.get('/api/general/list/12', query);
    const again = await as.producer!.get('/api/general/list/12', query);
    const p = accounts.get('producer') as Account;
    const c = accounts.get('collector') as Account;
    const owners = async (rows: { id: number }[]) => {
      if (!rows.length) return [];
      const res = await sql<{ create_company: number | null }>`select create_company from lc_view_12
        where id in (${sql.join(rows.map((r) => r.id))})`.execute(server.ctx.db);
      return [...new Set(res.rows.map((r) => r.create_company))];
    };
    expect(await owners(producer.body.content)).toEqual([p.companyId]);
    expect(await owners(collector.body.content)).toEqual([c.companyId]);
    expect(again.body).toEqual(producer.body);
    expect(admin.body.totalElements).toBeGreaterThan(producer.body.totalElements);
  });
});

describe('a record outside the scope', () => {
  it('answers 404 to detail, update, delete and scripts, and stays as it was', async () => {
    const p = accounts.get('producer') as Account;
    const { outside, inside } = await idsFor(12, p);
    const before = await as.admin!.get('/api/general/detail', { generalId: 12, id: outside });
    expect(before.status).toBe(200);

    const detail = await as.producer!.get('/api/general/detail', { generalId: 12, id: outside });
    expect(detail.status).toBe(404);
    const missing = await as.producer!.get('/api/general/detail', { generalId: 12, id: 999_999 });
    expect({ status: detail.status, body: detail.body }).toEqual({ status: missing.status, body: missing.body });

    const update = await as.producer!.request('PUT', '/api/general/update/12', { json: { ...before.body, remark: '越权修改' } });
    expect(update.status).toBe(404);
    const del = await as.producer!.request('POST', '/api/general/delete/12', { json: [outside] });
    expect(del.status).toBe(404);
    // One foreign id among own ones refuses the whole delete.
    if (inside !== undefined) {
      const mixed = await as.producer!.request('POST', '/api/general/delete/12', { json: [inside, outside] });
      expect(mixed.status).toBe(404);
      expect((await as.producer!.get('/api/general/detail', { generalId: 12, id: inside })).status).toBe(200);
    }
    const script = await as.producer!.request('POST', '/api/general/groovy/12', {
      json: { groovyQueryParam: 'confirmStock', ids: [outside] },
    });
    expect(script.status).toBe(404);
    const after = await as.admin!.get('/api/general/detail', { generalId: 12, id: outside });
    expect(after.body).toEqual(before.body);
  });

  it('is left out of exports and linked-select options', async () => {
    const p = accounts.get('producer') as Account;
    const { outside } = await idsFor(12, p);
    const options = await as.producer!.get('/api/general/allList/12/queryLink');
    expect(options.status).toBe(200);
    const ids = (options.body as { value: number }[]).map((o) => Number(o.value));
    expect(ids).not.toContain(outside);
    expect(ids.length).toBe(Math.min(1000, await count(12, allowed(12, p))));

    // The export holds a header row and the producer's records only.
    const exported = await as.producer!.request('GET', '/api/general/12/download', { query: { sort: 'id,asc' } });
    expect(exported.status).toBe(200);
    const { readWorkbook } = await import('../../server/lowcode/xlsx.js');
    const sheet = await readWorkbook(exported.body as Buffer, {
      maxUnpackedBytes: 50_000_000,
      maxRatio: 1000,
      maxRows: 100_000,
      maxColumns: 200,
    });
    expect(sheet.rows.length).toBe(await count(12, allowed(12, p)));
  });

  it('lets the owner update its own record', async () => {
    const p = accounts.get('producer') as Account;
    const { inside } = await idsFor(12, p);
    expect(inside).toBeDefined();
    const record = await as.producer!.get('/api/general/detail', { generalId: 12, id: inside });
    const res = await as.producer!.request('PUT', '/api/general/update/12', { json: { ...record.body, remark: '本企业修改' } });
    expect(res.status).toBe(200);
  });
});

describe('owner columns', () => {
  it('come from the creating user, never from the request body', async () => {
    const template = await as.producer!.get('/api/general/list/14', { page: 0, size: 1 });
    const sample = template.body.content[0];
    expect(sample).toBeDefined();
    const { id: _id, createTime: _t, updateTime: _u, createBy: _b, ...fields } = sample;
    const res = await as.producer!.request('POST', '/api/general/add/14', {
      json: {
        ...fields,
        name: '越权仓库',
        create_company: 2,
        createCompany: 2,
        create_dept: 1,
        createDept: 1,
        create_by: 'admin',
        createBy: 'admin',
      },
    });
    expect(res.status).toBe(200);
    const row = await sql<{ create_company: number; create_dept: number; create_by: string }>`
      select create_company, create_dept, create_by from lc_view_14 where id = ${res.body.id}`.execute(server.ctx.db);
    const p = accounts.get('producer') as Account;
    expect(row.rows[0]).toEqual({ create_company: p.companyId, create_dept: p.deptId, create_by: 'producer' });
    // The collection point, which lists warehouses too, does not see it; the producer does.
    expect((await as.collector!.get('/api/general/detail', { generalId: 14, id: res.body.id })).status).toBe(404);
    expect((await as.producer!.get('/api/general/detail', { generalId: 14, id: res.body.id })).status).toBe(200);
  });
});

describe('leave messages', () => {
  it('are read only by their receiving department and their author', async () => {
    for (const name of DEMO) {
      const a = accounts.get(name) as Account;
      const res = await as[name]!.get('/api/general/list/18', { page: 0, size: 1000 });
      if (res.status === 403) continue;
      for (const row of res.body.content as { deptId: number | null; createBy: string }[]) {
        expect(row.deptId === a.deptId || row.createBy === a.username, `${name} reads a message to dept ${row.deptId}`).toBe(true);
      }
    }
    const p = accounts.get('producer') as Account;
    const other = await sql<{ id: number }>`select id from lc_view_18
      where coalesce("deptId", -1) <> ${p.deptId ?? -1} and create_user is distinct from (select id from sys_user where username = 'producer') limit 1`.execute(
      server.ctx.db,
    );
    const id = other.rows[0]?.id;
    expect(id).toBeDefined();
    expect((await as.producer!.get('/api/general/detail', { generalId: 18, id })).status).toBe(404);
    expect((await as.admin!.get('/api/general/detail', { generalId: 18, id })).status).toBe(
      (await count(
        18,
        sql`id = ${id} and ("deptId" = ${accounts.get('admin')?.deptId ?? -1} or create_user = (select id from sys_user where username = 'admin'))`,
      ))
        ? 200
        : 404,
    );
  });
});

describe('labels of referenced records', () => {
  it("are answered with each row, also for a record outside the reader's scope", async () => {
    // The producer's inquiries name the asked disposer's contact; the disposer's orders name the producer's stock-in.
    const inquiries = await as.producer!.get('/api/general/list/15', { page: 0, size: 1000 });
    const withContact = (inquiries.body.content as { linkmanId: number | null; linkmanIdFmt: string | null }[]).filter((r) => r.linkmanId);
    expect(withContact.length).toBeGreaterThan(0);
    for (const r of withContact) {
      const name = await server.ctx.db
        .selectFrom('company_linkman')
        .select('name')
        .where('id', '=', Number(r.linkmanId))
        .executeTakeFirst();
      expect(r.linkmanIdFmt).toBe(name?.name ?? null);
    }
    const orders = await as.disposer!.get('/api/general/list/19', { page: 0, size: 1000 });
    const withStock = (orders.body.content as { id: number; stockId: number | null; stockIdFmt: string | null }[]).filter((r) => r.stockId);
    expect(withStock.length).toBeGreaterThan(0);
    for (const r of withStock) {
      const stock = await sql<{ stockNo: string }>`select "stockNo" from lc_view_12 where id = ${r.stockId}`.execute(server.ctx.db);
      expect(r.stockIdFmt).toBe(stock.rows[0]?.stockNo ?? null);
      // The stock-in itself stays the producer's.
      expect((await as.disposer!.get('/api/general/detail', { generalId: 19, id: r.id })).body.stockIdFmt).toBe(r.stockIdFmt);
    }
  });
});
