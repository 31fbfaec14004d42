import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import { formatDate } from '../../src/shared/format.js';
import { refusal } from '../helpers/refusal.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer, TEST_CAPTCHA } from '../helpers/server.js';

const day = (offset: number) => formatDate(Date.now() + offset * 86_400_000, 'YYYY-MM-DD');

interface RegionNode {
  value: string;
  label: string;
  children?: RegionNode[];
}

describe('apply to join, agreements, visits and look-ups', () => {
  let server: TestServer;
  let admin: ApiClient;
  let producer: ApiClient;
  let disposer: ApiClient;

  beforeAll(async () => {
    server = await startTestServer();
    [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
  });
  afterAll(() => server?.close());

  const captcha = async () => String((await server.api.get('/api/auth/code')).body.uuid);

  describe('POST /api/companyApplication/insert', () => {
    const complete = async (overrides: Record<string, unknown> = {}) => ({
      name: '南京栖霞恒信新材料有限公司',
      type: '1',
      comtype: '产废企业',
      region: '320000,320100,320113',
      regionFmt: '江苏省/南京市/栖霞区',
      applicant: '韩立军',
      phone: '13814025566',
      source: 2,
      code: TEST_CAPTCHA,
      uuid: await captcha(),
      ...overrides,
    });

    it('asks for each missing field with its own message, in form order', async () => {
      const steps: [string, string][] = [
        ['name', '企业名称不能为空'],
        ['type', '请选择企业类型'],
        ['region', '请选择企业地址'],
        ['applicant', '请输入申请人姓名'],
        ['phone', '请输入手机号'],
        ['code', '请输入验证码'],
      ];
      for (const [i, [, message]] of steps.entries()) {
        // Every field before this one filled in, this one and the rest left empty.
        const body = await complete();
        for (const [f] of steps.slice(i)) (body as Record<string, unknown>)[f] = '';
        const r = await server.api.post('/api/companyApplication/insert', body);
        expect(r.status, message).toBe(400);
        expect(r.body).toEqual({ status: 400, code: expect.any(String), message });
      }
    });

    it('checks the mobile number format', async () => {
      for (const phone of ['12345678901', '1381402556', '138140255661', '23814025566', '1381402556a']) {
        const r = await server.api.post('/api/companyApplication/insert', await complete({ phone }));
        expect(r.status, phone).toBe(400);
        expect(r.body).toEqual({ status: 400, code: 'MOBILE_INVALID', message: '手机号格式错误' });
      }
    });

    it('checks the captcha and uses it once', async () => {
      const uuid = await captcha();
      const wrong = await server.api.post('/api/companyApplication/insert', await complete({ code: '0000', uuid }));
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual(refusal(400, 'CAPTCHA_WRONG'));
      const reused = await server.api.post('/api/companyApplication/insert', await complete({ uuid }));
      expect(reused.status).toBe(400);
      expect(reused.body).toEqual(refusal(400, 'CAPTCHA_MISSING_OR_EXPIRED'));
      const unknown = await server.api.post('/api/companyApplication/insert', await complete({ uuid: 'no-such-uuid' }));
      expect(unknown.body).toEqual(refusal(400, 'CAPTCHA_MISSING_OR_EXPIRED'));
    });

    it('refuses a type outside companyType and a region that is not a full real path', async () => {
      const badType = await server.api.post('/api/companyApplication/insert', await complete({ type: '99' }));
      expect(badType.status).toBe(400);
      expect(badType.body).toEqual(refusal(400, 'COMPANY_TYPE_INVALID'));
      for (const region of ['320000,320100,999999', '320000,330100,330106', '320115', "320000,320100,320115'--"]) {
        const r = await server.api.post('/api/companyApplication/insert', await complete({ region }));
        expect(r.status, region).toBe(400);
        expect(r.body).toEqual(refusal(400, 'COMPANY_REGION_INVALID'));
      }
      const partial = await server.api.post('/api/companyApplication/insert', await complete({ region: '320000,320100' }));
      expect(partial.status).toBe(400);
      expect(partial.body).toEqual(refusal(400, 'COMPANY_REGION_NOT_COUNTY'));
      const shanghai = await server.api.post(
        '/api/companyApplication/insert',
        await complete({ name: '上海测试申请企业', region: '310000,310100,310115' }),
      );
      expect(shanghai.status).toBe(200);
    });

    it('stores a complete application once; a second pending one for the same name is refused', async () => {
      const r = await server.api.post('/api/companyApplication/insert', await complete({ regionFmt: 'forged' }));
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ status: 200, message: '申请已经提交，请耐心等待' });
      const row = await server.ctx.db
        .selectFrom('company_application')
        .selectAll()
        .where('name', '=', '南京栖霞恒信新材料有限公司')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        type: '1',
        comtype: '产废企业',
        region: '320000,320100,320113',
        region_fmt: '江苏省/南京市/栖霞区',
        applicant: '韩立军',
        phone: '13814025566',
        source: 2,
        status: 0,
      });

      const again = await server.api.post('/api/companyApplication/insert', await complete({ applicant: '另一人' }));
      expect(again.status).toBe(400);
      expect(again.body).toEqual(refusal(400, 'APPLICATION_PENDING'));
      const seeded = await server.api.post('/api/companyApplication/insert', await complete({ name: '苏州相城恒远塑业有限公司' }));
      expect(seeded.body).toEqual(refusal(400, 'APPLICATION_PENDING'));
    });
  });

  describe('GET /api/privacyPolicy/preview', () => {
    it('answers the privacy policy with 15 numbered clauses, without a session', async () => {
      const r = await server.api.get('/api/privacyPolicy/preview', { type: 3 });
      expect(r.status).toBe(200);
      expect(r.body.status).toBe(200);
      expect(r.body.data).toMatchObject({ type: 3, title: '隐私政策' });
      const clauses = [...(r.body.data.content as string).matchAll(/<h3>([一二三四五六七八九十]+)、/g)].map((m) => m[1]);
      expect(clauses).toHaveLength(15);
      expect(clauses[0]).toBe('一');
      expect(clauses[14]).toBe('十五');
    });

    it('answers the other agreements and 404 for an unknown type', async () => {
      const titles: Record<number, string> = { 1: '服务协议', 2: '入驻协议', 4: '授权协议' };
      for (const [type, title] of Object.entries(titles)) {
        const r = await server.api.get('/api/privacyPolicy/preview', { type });
        expect(r.status).toBe(200);
        expect(r.body.data.title).toBe(title);
        expect(r.body.data.content).toMatch(/<h3>/);
      }
      for (const type of ['5', '0', 'abc', '']) {
        expect((await server.api.get('/api/privacyPolicy/preview', { type })).status, type).toBe(404);
      }
    });
  });

  describe('visits', () => {
    it('counts page views and distinct IPs for today', async () => {
      expect((await server.api.get('/api/visits')).status).toBe(401);
      const before = (await admin.get('/api/visits')).body;
      expect(before.recentVisits).toBeGreaterThanOrEqual(before.newVisits);
      for (let i = 0; i < 3; i++) expect((await server.api.post('/api/visits')).status).toBe(200);
      const after = (await admin.get('/api/visits')).body;
      expect(after.newVisits).toBe(before.newVisits + 3);
      expect(after.recentVisits).toBe(before.recentVisits + 3);
      // All three came from 127.0.0.1: one new distinct IP for the day.
      expect(after.newIp).toBe(before.newIp + 1);
      await server.api.post('/api/visits');
      expect((await admin.get('/api/visits')).body.newIp).toBe(after.newIp);
    });

    it('charts the last 7 days ending today', async () => {
      const r = await producer.get('/api/visits/chartData');
      expect(r.status).toBe(200);
      const { rows } = await sql<{ today: string }>`select to_char(current_date, 'MM-DD') as today`.execute(server.ctx.db);
      expect(r.body.weekDays).toHaveLength(7);
      expect(r.body.weekDays.at(-1)).toBe(rows[0]!.today);
      expect(r.body.visitsData).toHaveLength(7);
      expect(r.body.ipData).toHaveLength(7);
      const totals = (await producer.get('/api/visits')).body;
      expect(r.body.visitsData.at(-1)).toBe(totals.newVisits);
      expect(r.body.visitsData.reduce((a: number, b: number) => a + b, 0)).toBe(totals.recentVisits);
      expect(r.body.ipData.reduce((a: number, b: number) => a + b, 0)).toBe(totals.recentIp);
      expect((await server.api.get('/api/visits/chartData')).status).toBe(401);
    });
  });

  describe('look-ups', () => {
    it('need a session', async () => {
      expect((await server.api.get('/api/region/regionTreeList')).status).toBe(200); // the apply dialog needs it before login
      for (const path of [
        '/api/companyWarehouse/list',
        '/api/companyWarehouse/unloadingPoint',
        '/api/companyLinkman/list',
        '/api/myWasteCategory',
        '/api/companyWasteCategory',
        '/api/getUserProcessPrimary',
        '/api/getUserProcess?processID=1',
        '/api/disposalOrder/effectiveContract?partyACompany=1',
        '/api/expiringContracts',
      ]) {
        expect((await server.api.get(path)).status, path).toBe(401);
      }
    });

    it('lists companies by type for form pickers', async () => {
      const all = await producer.get('/api/company/list');
      expect(all.status).toBe(200);
      expect(all.body.totalElements).toBeGreaterThanOrEqual(10);
      const disposers = await producer.get('/api/company/list', { type: '2' });
      expect(disposers.body.content.length).toBeGreaterThan(0);
      expect(disposers.body.content.every((c: { type: string }) => c.type === '2')).toBe(true);
      expect(disposers.body.totalElements).toBeLessThan(all.body.totalElements);
      expect((await server.api.get('/api/company/list')).status).toBe(401);
    });

    it('answers the region tree with real codes down to districts, cacheable', async () => {
      const r = await producer.get('/api/region/regionTreeList');
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
      const tree = r.body as RegionNode[];
      const js = tree.find((n) => n.value === '320000');
      expect(js?.label).toBe('江苏省');
      const nanjing = js?.children?.find((n) => n.value === '320100');
      expect(nanjing?.label).toBe('南京市');
      expect(nanjing?.children).toHaveLength(11);
      expect(nanjing?.children?.find((n) => n.value === '320115')).toEqual({ value: '320115', label: '江宁区' });
      const shanghai = tree.find((n) => n.value === '310000')?.children?.find((n) => n.value === '310100');
      expect(shanghai?.children).toHaveLength(16);
      expect(
        tree
          .find((n) => n.value === '330000')
          ?.children?.find((n) => n.value === '330100')
          ?.children?.map((n) => n.label),
      ).toContain('西湖区');
      // The cached answer is the same on the next call.
      expect((await disposer.get('/api/region/regionTreeList')).body).toEqual(tree);
    });

    it('answers the producer’s own warehouses and linkmen, whatever company it asks for', async () => {
      const r = await producer.get('/api/companyWarehouse/list');
      expect(r.status).toBe(200);
      expect(r.body.totalElements).toBe(2);
      expect(r.body.content[0]).toEqual({
        id: expect.any(Number),
        name: '一号危废暂存库',
        region: '320000,320500,320505',
        regionFmt: '江苏省/苏州市/虎丘区',
        address: expect.stringContaining('苏州高新区'),
        linkmanId: expect.any(Number),
        linkmanName: '李秀英',
        phone: '13851608842',
      });
      const foreign = await producer.get('/api/companyWarehouse/list', { companyId: COMPANY.disposer });
      expect(foreign.body.content.map((w: { id: number }) => w.id)).toEqual(r.body.content.map((w: { id: number }) => w.id));

      const linkmen = await producer.get('/api/companyLinkman/list');
      expect(linkmen.body.content.map((l: { name: string }) => l.name)).toEqual(['王丽华', '李秀英']);
      expect(linkmen.body.content[0]).toEqual({ id: expect.any(Number), name: '王丽华', phone: '13862100003', position: '环保负责人' });
    });

    it('lets the administrator see every company or pick one', async () => {
      const all = await admin.get('/api/companyWarehouse/list');
      expect(all.body.totalElements).toBeGreaterThan(10);
      const one = await admin.get('/api/companyWarehouse/list', { companyId: COMPANY.disposer });
      expect(one.body.totalElements).toBe(3);
      const linkmen = await admin.get('/api/companyLinkman/list', { companyId: COMPANY.disposer });
      expect(linkmen.body.content.map((l: { name: string }) => l.name)).toContain('赵永刚');
      expect((await admin.get('/api/companyWarehouse/list', { companyId: 'abc' })).status).toBe(400);
    });

    it('answers only unloading points', async () => {
      const r = await disposer.get('/api/companyWarehouse/unloadingPoint');
      expect(r.status).toBe(200);
      expect(r.body.status).toBe(200);
      expect(r.body.data).toHaveLength(2);
      expect(r.body.data[0]).toMatchObject({ regionFmt: '江苏省/南京市/江宁区', linkmanName: '赵永刚', phone: '13701587734' });
      const flags = await server.ctx.db
        .selectFrom('company_warehouse')
        .select('unloading_point')
        .where(
          'id',
          'in',
          r.body.data.map((w: { id: number }) => w.id),
        )
        .execute();
      expect(flags.every((f) => f.unloading_point)).toBe(true);
      expect((await producer.get('/api/companyWarehouse/unloadingPoint')).body.data).toEqual([]);
    });

    it('answers waste categories of the own company and of another', async () => {
      const mine = await producer.get('/api/myWasteCategory');
      expect(mine.status).toBe(200);
      expect(mine.body.content).toContainEqual({ code: '900-249-08', name: '废矿物油', category: 'HW08' });
      expect(mine.body.content).toContainEqual({ code: '900-041-49', name: '含有或沾染毒性危险废物的废弃包装物', category: 'HW49' });
      const theirs = await disposer.get('/api/companyWasteCategory', { companyId: COMPANY.producer });
      expect(theirs.body.content).toEqual(mine.body.content);
      const own = await disposer.get('/api/companyWasteCategory');
      expect(own.body.content.map((c: { code: string }) => c.code)).toContain('336-064-17');
    });

    it('answers disposal processes and their sub-processes', async () => {
      const primary = await producer.get('/api/getUserProcessPrimary', { page: 1, size: 999 });
      expect(primary.status).toBe(200);
      const codes = primary.body.content.map((p: { code: string }) => p.code);
      expect(codes).toEqual(expect.arrayContaining(['D10', 'D1', 'D9', 'R']));
      const burn = primary.body.content.find((p: { code: string }) => p.code === 'D10');
      expect(burn.name).toBe('焚烧');
      const subs = await producer.get('/api/getUserProcess', { page: 1, size: 999, processID: burn.id });
      expect(subs.status).toBe(200);
      expect(subs.body.content.length).toBeGreaterThan(0);
      expect(subs.body.content.every((s: { pid: number; code: string }) => s.pid === burn.id && s.code.startsWith('D10-'))).toBe(true);
      const missing = await producer.get('/api/getUserProcess', { page: 1, size: 999 });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual(refusal(400, 'PROCESS_REQUIRED'));
    });

    it('answers effective contracts of a party A company, never expired ones', async () => {
      const r = await disposer.get('/api/disposalOrder/effectiveContract', { partyACompany: COMPANY.producer });
      expect(r.status).toBe(200);
      const nos = r.body.data.map((c: { contractNo: string }) => c.contractNo);
      expect(nos).toEqual(['HT2026-0012', 'HT2026-0025']);
      expect(nos).not.toContain('HT2025-0173');
      const { rows } = await sql<{ today: string }>`select to_char(current_date, 'YYYY-MM-DD') as today`.execute(server.ctx.db);
      for (const c of r.body.data) {
        expect(c.endTime >= rows[0]!.today).toBe(true);
        expect(c).toMatchObject({ partyAName: '王丽华', partyARegion: '320000,320500,320505', partyAUserId: expect.any(Number) });
        expect(JSON.parse(c.filePath)[0].fileName).toContain(c.contractNo);
      }
      // The producer sees its contract with the second disposer too; the admin sees all three.
      const own = await producer.get('/api/disposalOrder/effectiveContract', { partyACompany: COMPANY.producer });
      expect(own.body.data).toHaveLength(3);
      const all = await admin.get('/api/disposalOrder/effectiveContract', { partyACompany: COMPANY.producer });
      expect(all.body.data).toHaveLength(3);
      expect((await disposer.get('/api/disposalOrder/effectiveContract')).status).toBe(400);
    });

    it('counts contracts ending within 30 days for the user’s company', async () => {
      expect((await producer.get('/api/expiringContracts')).body).toEqual({ count: 2 });
      expect((await disposer.get('/api/expiringContracts')).body).toEqual({ count: 3 });
      // A contract ending in 31 days is outside the window, one ending today inside.
      const contract = (contractNo: string, endDate: string) =>
        disposer.post('/api/general/add/16', {
          contractNo,
          contractName: '测试委托处置合同',
          partyAId: COMPANY.producer,
          partyBId: COMPANY.disposer,
          amount: 1000,
          signDate: day(-300),
          beginDate: day(-300),
          endDate,
          contractStatus: '2',
        });
      expect((await contract('HT2026-9031', day(31))).status).toBe(200);
      expect((await contract('HT2026-9000', day(0))).status).toBe(200);
      expect((await producer.get('/api/expiringContracts')).body).toEqual({ count: 3 });
    });
  });
});
