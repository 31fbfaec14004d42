import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import { refusal } from '../helpers/refusal.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/** Bank information: each company's settlement account, read and saved by its own users only. */

let server: TestServer;
let producer: ApiClient;
let disposer: ApiClient;
let guest: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  [producer, disposer, guest] = await Promise.all([server.login('producer'), server.login('disposer'), server.login('guest')]);
});
afterAll(() => server?.close());

describe('/api/companyBank', () => {
  it('answers none at first, then what the company saved, to its users only', async () => {
    expect((await producer.get('/api/companyBank/info')).body).toEqual({
      companyId: COMPANY.producer,
      bankName: null,
      accountName: null,
      accountNo: null,
      updateTime: null,
    });
    const saved = await producer.put('/api/companyBank', {
      bankName: '中国工商银行苏州高新区支行',
      accountName: '苏州华瑞精细化工有限公司',
      accountNo: '1102 0201 0900 1234 567',
    });
    expect(saved.body).toEqual({ status: 200, message: '保存成功' });
    const info = (await producer.get('/api/companyBank/info')).body;
    expect(info).toMatchObject({
      bankName: '中国工商银行苏州高新区支行',
      accountName: '苏州华瑞精细化工有限公司',
      accountNo: '1102020109001234567',
    });
    expect(info.updateTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Another company sees its own, empty, record.
    expect((await disposer.get('/api/companyBank/info')).body).toMatchObject({ companyId: COMPANY.disposer, accountNo: null });
  });

  it('checks each field and says which is wrong', async () => {
    const put = (body: Record<string, unknown>) => producer.put('/api/companyBank', body);
    const full = { bankName: '中国银行', accountName: '苏州华瑞', accountNo: '6216600000001234' };
    expect((await put({ ...full, bankName: ' ' })).body).toEqual(refusal(400, 'BANK_NAME_REQUIRED'));
    expect((await put({ ...full, accountName: '' })).body).toEqual(refusal(400, 'BANK_ACCOUNT_NAME_REQUIRED'));
    expect((await put({ ...full, accountNo: '' })).body).toEqual(refusal(400, 'BANK_ACCOUNT_NO_REQUIRED'));
    expect((await put({ ...full, accountNo: '12ab5678' })).body).toEqual(refusal(400, 'BANK_ACCOUNT_NO_INVALID'));
    expect((await put({ ...full, accountNo: '1234567' })).body).toEqual(refusal(400, 'BANK_ACCOUNT_NO_INVALID'));
  });

  it('refuses a user without a company, and a caller without a session', async () => {
    expect((await guest.get('/api/companyBank/info')).body).toEqual(refusal(403, 'NO_COMPANY'));
    expect((await guest.put('/api/companyBank', { bankName: '中国银行', accountName: '某', accountNo: '6216600000001234' })).status).toBe(
      403,
    );
    expect((await server.api.get('/api/companyBank/info')).status).toBe(401);
  });
});
