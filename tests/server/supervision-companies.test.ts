import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * The companies behind the supervisory home's figures: each filter's total is the figure of the tile
 * or pie slice that opens it, computed by the same rules.
 */
let server: TestServer;
let supervisor: ApiClient;
let producer: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  [supervisor, producer] = await Promise.all([server.login('supervisor'), server.login('producer')]);
});
afterAll(() => server?.close());

const companies = async (query: Record<string, unknown> = {}) => {
  const r = await supervisor.get('/api/companyApi/homePage/companies', query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as {
    content: { name: string; micro: boolean; haveContract: boolean; haveServer: boolean; yearStockTons: number }[];
    totalElements: number;
  };
};
const figure = async (path: string) => (await supervisor.get(`/api/companyApi/homePage/${path}`, { isRefresh: 1 })).body;

describe('/api/companyApi/homePage/companies', () => {
  it('lists the producing companies, and each filter matches the home figure that links to it', async () => {
    const all = await companies();
    const contracts = await figure('contractSummary');
    const services = await figure('serverSummary');
    const summary = await figure('dataSummary');
    expect(all.totalElements).toBe(contracts.totalContractCompanyCount);
    expect(all.totalElements).toBeGreaterThan(0);
    expect((await companies({ micro: 1 })).totalElements).toBe(summary.microCompanyCount);
    expect((await companies({ haveYearCount: 1 })).totalElements).toBe(contracts.haveContractCompanyCount);
    expect((await companies({ haveYearCount: 0 })).totalElements).toBe(contracts.unContractCompanyCount);
    expect((await companies({ haveServerCount: 1 })).totalElements).toBe(services.haveServerCompanyCount);
    expect((await companies({ haveServerCount: 0 })).totalElements).toBe(services.unServerCompanyCount);
    const micro = await companies({ micro: 1 });
    expect(micro.content.every((c) => c.micro && c.yearStockTons < 10)).toBe(true);
  });

  it('pages, searches by name, and answers only the supervisory department', async () => {
    const first = await companies({ page: 0, size: 1 });
    expect(first.content).toHaveLength(1);
    const name = first.content[0]!.name;
    const found = await companies({ blurry: name.slice(0, 4) });
    expect(found.content.map((c) => c.name)).toContain(name);
    expect((await companies({ blurry: '不存在的企业名称' })).totalElements).toBe(0);
    const refused = await producer.get('/api/companyApi/homePage/companies');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(refusal(403, 'SUPERVISORS_ONLY'));
  });
});
