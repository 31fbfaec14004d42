import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../server/app.js';
import { contractViolations } from '../../server/resources/register.js';
import { type CallSpec, declaredErrors, isFileAnswer, isMultipart } from '../../src/contract/define.js';
import { RESOURCES } from '../../src/contract/index.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/** Routes that are no calls: the realtime socket (a channel its messages describe) and the API document's own pages. */
const NOT_CALLS = ['/websocket', '/websocket/:username', '/api/docs', '/api/docs/openapi.json', '/api/docs/viewer.js'];

const calls = RESOURCES.flatMap((r) => Object.entries(r.calls).map(([name, c]) => ({ id: `${r.name}.${name}`, c: c as CallSpec })));

let server: TestServer;
const accounts = new Map<string, ApiClient>();
/** A signed-in client of the demo account, signed in again when a call ended its session. */
async function as(username: string): Promise<ApiClient> {
  const known = accounts.get(username);
  if (known && (await known.get('/api/auth/info')).status === 200) return known;
  const client = await server.login(username);
  accounts.set(username, client);
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the API contract', () => {
  it('is what the server serves: every call is a route with its access, and every API route is a call', () => {
    const table = routeTable(server.app).filter((r) => r.method !== 'HEAD');
    const byCall = new Map(table.filter((r) => r.config.contract).map((r) => [r.config.contract as string, r]));
    for (const { id, c } of calls) {
      const route = byCall.get(id);
      expect(route, id).toBeDefined();
      expect(`${route?.method} ${route?.url}`, id).toBe(`${c.method} ${c.path}`);
    }
    const outside = table
      .filter((r) => (r.url.startsWith('/api') || r.url.startsWith('/websocket')) && !r.config.contract && !NOT_CALLS.includes(r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(outside).toEqual([]);
  });

  it.each(calls)('$id answers its declared shape, or a refusal it declares', async ({ id, c }) => {
    const example = c.example ?? {};
    const client = c.access === 'public' ? server.api : await as(example.as ?? 'admin');
    const path = c.path.replace(/:([A-Za-z_]\w*)/g, (_, n: string) => encodeURIComponent(String(example.params?.[n] ?? 1)));
    const mark = contractViolations.length;
    let body: BodyInit | undefined;
    if (isMultipart(c.body)) body = new FormData();
    const res = await client.request(c.method, path, {
      query: example.query as Record<string, unknown> | undefined,
      ...(isMultipart(c.body)
        ? { body }
        : c.form
          ? { form: (example.body ?? {}) as Record<string, string> }
          : example.body !== undefined
            ? { json: example.body }
            : {}),
    });
    expect(res.status, `${id}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
    if (res.status < 400) {
      expect(res.status, id).toBe(c.status ?? 200);
      if (!isFileAnswer(c.answer)) {
        const parsed = c.answer.safeParse(res.body);
        expect(parsed.success, `${id}: ${parsed.error?.message}`).toBe(true);
      }
    } else {
      // A read answers its example, unless the example names the refusal it must meet; a write may refuse.
      if (example.refuses) expect(res.body.code, id).toBe(example.refuses);
      else if (c.method === 'GET') expect.fail(`${id} refused ${res.status} ${JSON.stringify(res.body)}`);
      expect([...declaredErrors(c)], `${id} refused with ${res.body.code}`).toContain(res.body.code);
    }
    if (example.refuses) expect(res.status, `${id} should refuse with ${example.refuses}`).toBeGreaterThanOrEqual(400);
    expect(contractViolations.slice(mark)).toEqual([]);
  });
});

describe('the API document', () => {
  it('is served at /api/docs as the committed docs/openapi.json, with a viewer, without a session or signature', async () => {
    const page = await fetch(`${server.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('/api/docs/viewer.js');
    const viewer = await fetch(`${server.url}/api/docs/viewer.js`);
    expect(viewer.status).toBe(200);
    const doc = await fetch(`${server.url}/api/docs/openapi.json`);
    expect(doc.status).toBe(200);
    const committed = JSON.parse(readFileSync(join(import.meta.dirname, '../../docs/openapi.json'), 'utf8'));
    expect(await doc.json()).toEqual(committed);
    expect(committed.openapi).toBe('3.1.0');
  });

  it('is not served when API_DOCS=0', async () => {
    const off = await startTestServer({ apiDocs: false });
    try {
      for (const path of ['/api/docs', '/api/docs/openapi.json', '/api/docs/viewer.js']) {
        const res = await fetch(`${off.url}${path}`);
        expect(res.status, path).toBe(404);
      }
    } finally {
      await off.close();
    }
  });
});
