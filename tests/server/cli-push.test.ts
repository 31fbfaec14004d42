import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import type { ApiClient } from '../helpers/server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * `wastegen push` against two real reference servers: pull from A, push to B (emptied of its
 * definitions), pull from B into an empty folder; the definitions are the same, ids aside. Also
 * --dry-run (nothing written), idempotence, validation before any call, --prune, and a failure
 * part-way (a proxy refuses one write) that a second run finishes.
 */

const ROOT = join(import.meta.dirname, '../..');
let a: TestServer;
let b: TestServer;
let adminA: ApiClient;
let adminB: ApiClient;
const made: string[] = [];

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  [adminA, adminB] = await Promise.all([a.login('admin'), b.login('admin')]);
}, 120_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const folder = () => {
  const d = mkdtempSync(join(tmpdir(), 'wastegen-push-'));
  made.push(d);
  return d;
};

function auth(server: TestServer, client: ApiClient, url = server.url): string[] {
  const args = ['--server', url, '--token', client.token as string];
  if (server.config.signSecret) args.push('--sign-secret', server.config.signSecret);
  return args;
}

async function cli(dir: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'wastegen', ...args, '--cwd', dir], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function listAll(client: ApiClient, kind: 'generation' | 'screen'): Promise<{ id: number; name: string }[]> {
  const res = await client.get(`/api/${kind}/list`, { page: 0, size: 9999 });
  expect(res.status).toBe(200);
  return res.body.content;
}

/** Removes every screen and view of a server, so it is a fresh target. */
async function emptyDefinitions(client: ApiClient) {
  for (const s of await listAll(client, 'screen')) expect((await client.post('/api/screen/delete', { ids: [s.id] })).status).toBe(200);
  for (const v of await listAll(client, 'generation'))
    expect((await client.post('/api/generation/delete', { ids: [v.id] })).status).toBe(200);
}

type Json = Record<string, any>;

/**
 * A folder's definitions with ids aside: keyed by componentName (views) or type and name (screens),
 * without id, menuId and times; screen references as the referenced view's componentName or data
 * view's name; a screen's vBuild{id} name as vBuild.
 */
function idsAside(dir: string): Record<string, Json> {
  const read = (kind: string) =>
    readdirSync(join(dir, 'definitions', kind)).map((f) => JSON.parse(readFileSync(join(dir, 'definitions', kind, f), 'utf8')) as Json);
  const views = read('views');
  const dataViews = JSON.parse(readFileSync(join(dir, 'definitions', 'data-views.json'), 'utf8')) as { id: number; name: string }[];
  const viewName = (id: unknown) => views.find((v) => v.id === Number(id))?.disMenu?.componentName ?? `missing view ${id}`;
  const dataViewName = (id: unknown) => dataViews.find((v) => v.id === Number(id))?.name ?? `missing data view ${id}`;
  const strip = ({ id: _id, menuId: _m, createTime: _c, updateTime: _u, ...rest }: Json) => rest;
  const out: Record<string, Json> = {};
  // A field's options name the view they come from by id: read as that view's componentName.
  const pickedAside = (text: string) =>
    text.replace(/"\/api\/general\/allList\/(\d+)\/queryLink/g, (_, id) => `"/api/general/allList/${viewName(id)}/queryLink`);
  for (const v of views) out[`view ${v.disMenu.componentName}`] = JSON.parse(pickedAside(JSON.stringify(strip(v))));
  for (const s of read('screens')) {
    const json = strip(structuredClone(s));
    if (json.disMenu?.componentName === `vBuild${s.id}`) json.disMenu.componentName = 'vBuild';
    const t = json.disTemplate;
    if (t) {
      if (t.baseView !== undefined) t.baseView = Array.isArray(t.baseView) ? t.baseView.map(viewName) : viewName(t.baseView);
      if (t.formView !== undefined) t.formView = viewName(t.formView);
      for (const item of t.layout ?? [])
        for (const chart of item.chart ?? [])
          if (chart.configure?.private?.dataViewId !== undefined)
            chart.configure.private.dataViewId = dataViewName(chart.configure.private.dataViewId);
    }
    out[`screen ${s.type} ${s.name}`] = json;
  }
  return out;
}

describe('wastegen push', () => {
  let source: string;

  it('round-trips: pull from A, push to an emptied B, pull from B gives the same definitions, ids aside', async () => {
    source = folder();
    const pulled = await cli(source, 'pull', ...auth(a, adminA));
    expect(pulled.code, pulled.err).toBe(0);
    await emptyDefinitions(adminB);
    // B's next ids are not A's: a view created and deleted moves B's sequence on.
    const bump = await adminB.post('/api/generation/add', { name: 'bump' });
    await adminB.post('/api/generation/delete', { ids: [bump.body.id] });

    const dry = await cli(source, 'push', '--dry-run', '--publish', ...auth(b, adminB));
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/^\+ definitions\/views\/12-stock-in\.json {2}view 12 危废入库 \(created on the server\)$/m);
    expect(dry.out).toMatch(/nothing was written$/);
    expect(await listAll(adminB, 'generation')).toEqual([]);
    expect(await listAll(adminB, 'screen')).toEqual([]);

    const pushed = await cli(source, 'push', '--publish', ...auth(b, adminB));
    expect(pushed.code, `${pushed.out}\n${pushed.err}`).toBe(0);
    expect(pushed.out).toMatch(/pushed to .*: \d+ created, 0 updated, 0 deleted, 0 unchanged/);

    const back = folder();
    const again = await cli(back, 'pull', ...auth(b, adminB));
    expect(again.code, again.err).toBe(0);
    const before = idsAside(source);
    const after = idsAside(back);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const key of Object.keys(before)) expect(after[key], key).toEqual(before[key]);
    // Ids did change: the references were rewritten, not copied.
    const ids = (dir: string) => readdirSync(join(dir, 'definitions', 'views')).sort();
    expect(ids(back)).not.toEqual(ids(source));
    // A field's options follow the view they come from to its id on B.
    const onB = (componentName: string) =>
      ids(back)
        .map((f) => JSON.parse(readFileSync(join(back, 'definitions', 'views', f), 'utf8')) as Json)
        .find((v) => v.disMenu?.componentName === componentName) as Json;
    const order = onB('disposalOrder');
    const waybill = JSON.stringify(onB('logisticsOrder'));
    expect(waybill).toContain(`"/api/general/allList/${order.id}/queryLink"`);
    expect(waybill).not.toMatch(/allList\/19\/queryLink/);
  }, 240_000);

  it('is idempotent: a second push has nothing to do', async () => {
    const r = await cli(source, 'push', '--publish', ...auth(b, adminB));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^nothing to push: \d+ definitions on /m);
    const dry = await cli(source, 'push', '--dry-run', '--json', ...auth(b, adminB));
    expect(dry.code).toBe(0);
    const doc = JSON.parse(dry.out);
    expect(doc.calls).toEqual([]);
    expect(doc.summary).toMatchObject({ created: 0, updated: 0, deleted: 0 });
  }, 120_000);

  it('shows a changed field in diff format, then updates it', async () => {
    const file = join(source, 'definitions/views/17-vehicle.json');
    const original = readFileSync(file, 'utf8');
    const json = JSON.parse(original);
    const was = json.name;
    json.name = '车辆管理（新）';
    writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    try {
      const dry = await cli(source, 'push', '--dry-run', ...auth(b, adminB));
      expect(dry.code, dry.err).toBe(0);
      expect(dry.out).toMatch(/^~ definitions\/views\/17-vehicle\.json {2}view \d+ 车辆管理（新）$/m);
      expect(dry.out.split('\n')).toContain(`    name: "${was}" → "车辆管理（新）"`);
      const r = await cli(source, 'push', ...auth(b, adminB));
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^ {2}update view vehicle \(id \d+\)$/m);
      expect((await listAll(adminB, 'generation')).some((v) => v.name === '车辆管理（新）')).toBe(true);
    } finally {
      writeFileSync(file, original);
    }
    const r = await cli(source, 'push', ...auth(b, adminB));
    expect(r.code, r.err).toBe(0);
  }, 120_000);

  it('validates everything first: an unresolvable reference is a problem with its pointer, exit 1, and no call', async () => {
    const dir = folder();
    expect((await cli(dir, 'pull', ...auth(a, adminA))).code).toBe(0);
    const screen = join(dir, 'definitions/screens/25-form-preview.json');
    const json = JSON.parse(readFileSync(screen, 'utf8'));
    json.disTemplate.formView = 999;
    json.name = '一个新表单屏';
    writeFileSync(screen, `${JSON.stringify(json, null, 2)}\n`);
    // A proxy that records every call: there must be none.
    const seen: string[] = [];
    const proxy = await startProxy(b.url, (method, path) => {
      seen.push(`${method} ${path}`);
      return false;
    });
    try {
      const r = await cli(dir, 'push', ...auth(b, adminB, proxy.url));
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        'definitions/screens/25-form-preview.json#/disTemplate/formView: view 999 is not among the definitions, so its counterpart on the target cannot be found',
      );
      expect(r.err).toMatch(/nothing was sent to the server/);
      expect(seen).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('stops at a failed call, says what was applied and what was not, and a second run finishes', async () => {
    const dir = folder();
    expect((await cli(dir, 'pull', ...auth(a, adminA))).code).toBe(0);
    await emptyDefinitions(adminB);
    let posts = 0;
    const proxy = await startProxy(b.url, (method) => method === 'POST' && ++posts === 4);
    try {
      const r = await cli(dir, 'push', ...auth(b, adminB, proxy.url));
      expect(r.code).toBe(3);
      expect(r.err).toMatch(/push stopped after 3 of \d+ calls/);
      expect(r.err).toMatch(/^ {2}not applied: create view /m);
      expect(r.out.split('\n').filter((l) => l.startsWith('  create view'))).toHaveLength(3);
    } finally {
      await proxy.close();
    }
    expect(await listAll(adminB, 'generation')).toHaveLength(3);
    const r = await cli(dir, 'push', ...auth(b, adminB));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/: \d+ created, 0 updated, 0 deleted, 3 unchanged/);
    const r2 = await cli(dir, 'push', ...auth(b, adminB));
    expect(r2.out).toMatch(/^nothing to push/m);
  }, 240_000);

  it('--prune deletes what the folder does not hold, screens before the views they show', async () => {
    const dir = folder();
    expect((await cli(dir, 'pull', ...auth(a, adminA))).code).toBe(0);
    expect((await cli(dir, 'push', ...auth(b, adminB))).code).toBe(0);
    unlinkSync(join(dir, 'definitions/screens/25-form-preview.json'));
    unlinkSync(join(dir, 'definitions/views/20-logistics-order.json'));
    const kept = await cli(dir, 'push', ...auth(b, adminB));
    expect(kept.out).toMatch(/^nothing to push/m);
    const dry = await cli(dir, 'push', '--prune', '--dry-run', ...auth(b, adminB));
    expect(dry.out).toMatch(/^- .*\(deleted from the server\)$/m);
    const r = await cli(dir, 'push', '--prune', ...auth(b, adminB));
    expect(r.code, r.err).toBe(0);
    const lines = r.out.split('\n').filter((l) => l.startsWith('  delete'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ {2}delete screen /);
    expect(lines[1]).toMatch(/^ {2}delete view logisticsOrder/);
  }, 240_000);

  it('diff --impact names hand-written code that uses a field the server removed', async () => {
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'tmp', 'diff-impact-'));
    made.push(dir);
    expect((await cli(dir, 'pull', ...auth(b, adminB))).code).toBe(0);
    expect((await cli(dir, 'generate')).code).toBe(0);
    const viewFile = readdirSync(join(dir, 'definitions/views')).find((f) => f.endsWith('-stock-in.json')) as string;
    const id = Number(viewFile.split('-')[0]);
    const paths = { '@wastegen/model': ['../../src/model/index.ts'], '@wastegen/engine': ['../../src/engine/index.ts'] };
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { paths }, include: ['src', 'generated'] }),
    );
    mkdirSync(join(dir, 'src/pages'), { recursive: true });
    const schema = `../../generated/views/${viewFile.replace(/\.json$/, '')}/schema`;
    writeFileSync(
      join(dir, 'src/pages/report.ts'),
      `import type { StockInRecord } from '${schema}';\n\nexport const codeOf = (r: StockInRecord) => r.wasteCode;\n`,
    );
    const clean = await cli(dir, 'diff', '--impact', ...auth(b, adminB));
    expect(clean.code, clean.err).toBe(0);

    const detail = await adminB.get('/api/generation/detail', { id });
    const template = JSON.parse(detail.body.disTemplate);
    for (const key of ['formOption', 'tableOption']) template[key] = template[key].filter((f: { name: string }) => f.name !== 'wasteCode');
    expect((await adminB.post('/api/generation/design', { id, disTemplate: JSON.stringify(template) })).status).toBe(200);

    const r = await cli(dir, 'diff', '--impact', ...auth(b, adminB));
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `src/pages/report.ts:3:47 uses StockInRecord.wasteCode; view ${id} (definitions/views/${viewFile}) no longer has this field`,
    );
  }, 240_000);
});

/** An HTTP proxy to `target` that answers 503 to the calls `fail` picks. */
async function startProxy(
  target: string,
  fail: (method: string, path: string) => boolean,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (fail(req.method ?? 'GET', (req.url ?? '').split('?')[0] as string)) {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 503, message: '服务暂不可用' }));
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k)),
    ) as Record<string, string>;
    const upstream = await fetch(new URL(req.url ?? '/', target), {
      method: req.method,
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}
