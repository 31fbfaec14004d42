import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * With SIGN_SECRET set, a signature is checked against the query and body as the client sent them,
 * whatever the route's schema makes of them afterwards (isRefresh=1 read as true, ids coerced to numbers).
 */
describe('signatures over parameters a schema transforms', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ signSecret: 'as-sent-secret' });
  });
  afterAll(() => server?.close());

  it('accepts signed dashboard calls with isRefresh and a warehouse id, and still refuses a changed one', async () => {
    const producer = await server.login('producer');
    const warehouses = await producer.get('/api/companyWarehouse/list');
    expect(warehouses.status).toBe(200);
    const id = warehouses.body.content[0].id;
    for (const query of [{ isRefresh: 1 }, { isRefresh: 0 }, {}, { isRefresh: 1, warehouseId: id }]) {
      const r = await producer.get('/api/inventoryInfo', query);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const r = await producer.get('/api/companyApi/info');
    expect(r.status).toBe(200);

    // A parameter changed after signing is refused.
    const signed = await producer.request('GET', '/api/inventoryInfo', { query: { isRefresh: 1 } });
    expect(signed.status).toBe(200);
    const url = new URL('/api/inventoryInfo?isRefresh=0', server.url);
    const ts = String(Date.now());
    const tampered = await fetch(url, { headers: { authorization: String(producer.token), timestamp: ts, sign: 'A'.repeat(64) } });
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toEqual(refusal(400, 'SIGNATURE_INVALID'));
  });
});
