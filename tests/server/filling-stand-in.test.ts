import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/** Without GUFEI_BASE_URL the filling-system entries open the reference server's own stand-in. */

const PRODUCER = '苏州华瑞精细化工有限公司';

let server: TestServer;
let producer: ApiClient;

beforeAll(async () => {
  server = await startTestServer({ gufeiBaseUrl: undefined });
  producer = await server.login('producer');
});
afterAll(() => server?.close());

describe('the filling system out of the box', () => {
  it('issues a token whose pages are this server’s stand-in, showing the company it was issued for', async () => {
    const r = (await producer.get('/api/guFeiUrl/getTokenByCompayCode', { CompanyCode: 'BCI3205050001' })).body;
    expect(r.code).toBe('00000');
    const token = encodeURIComponent(r.data.token);
    expect(r.data.dangerUrl).toBe(`/gufei/order/danger?token=${token}`);
    expect(r.data.planUrl).toBe(`/gufei/plan/query?token=${token}`);
    for (const [url, title] of [
      [r.data.dangerUrl, '危废转移联单填报'],
      [r.data.planUrl, '管理计划查询'],
    ]) {
      const page = await server.api.get(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.body).toContain(`<h1>${title}</h1>`);
      expect(page.body).toContain(`企业：${PRODUCER}`);
    }
  });

  it('refuses the stand-in pages without a token of this server', async () => {
    for (const query of [{}, { token: 'forged' }]) {
      const page = await server.api.get('/gufei/order/danger', query);
      expect(page.status).toBe(401);
      expect(page.body).toContain('凭证无效或已过期');
    }
  });
});
