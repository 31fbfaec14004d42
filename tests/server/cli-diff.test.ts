import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiffDocument } from '../../cli/commands/diff.js';
import { main } from '../../cli/main.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

// This server requires signed requests, so every command here also exercises --sign-secret.
const SECRET = 'diff-test-secret';

let server: TestServer;
let admin: ApiClient;
let dir: string;

beforeAll(async () => {
  delete process.env.WASTEGEN_SERVER;
  delete process.env.WASTEGEN_TOKEN;
  delete process.env.WASTEGEN_SIGN_SECRET;
  server = await startTestServer({ signSecret: SECRET });
  admin = await server.login('admin');
  dir = mkdtempSync(join(tmpdir(), 'wastegen-diff-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  out: string;
  err: string;
}

async function cli(command: string, ...args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const argv = ['node', 'wastegen', command, '--cwd', dir, '--server', server.url, '--token', admin.token as string, ...args];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function diffJson(): Promise<DiffDocument> {
  const r = await cli('diff', '--sign-secret', SECRET, '--json');
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}

function snapshot(): Record<string, { text: string; mtime: number }> {
  const out: Record<string, { text: string; mtime: number }> = {};
  for (const sub of ['views', 'screens']) {
    for (const name of readdirSync(join(dir, 'definitions', sub))) {
      const file = join(dir, 'definitions', sub, name);
      out[`${sub}/${name}`] = { text: readFileSync(file, 'utf8'), mtime: statSync(file).mtimeMs };
    }
  }
  return out;
}

/** The same JSON with every object's keys in reverse order. */
function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .reverse()
        .map((k) => [k, reverseKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

let addedId = 0;

describe('wastegen diff', () => {
  it('needs the sign secret when the server requires signing', async () => {
    const pulled = await cli('pull', '--sign-secret', SECRET);
    expect(pulled.err).toBe('');
    expect(pulled.code).toBe(0);
    const unsigned = await cli('diff');
    expect(unsigned.code).toBe(3);
    expect(unsigned.err).toMatch(/400/);
  });

  it('reports no differences right after a pull, and key order is no difference', async () => {
    const file = join(dir, 'definitions/views/13-stock-out.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, `${JSON.stringify(reverseKeys(json), null, 2)}\n`);
    const doc = await diffJson();
    expect(doc.summary).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 17 });
    expect(doc.definitions).toEqual([]);
    expect((await cli('diff', '--sign-secret', SECRET, '--exit-code')).code).toBe(0);
    // Restore the pulled bytes so that the rest compares against a clean pull.
    expect((await cli('pull', '--sign-secret', SECRET)).code).toBe(0);
  });

  it('reports changed, added and removed fields, buttons, options and definitions', async () => {
    const detail = await admin.get('/api/generation/detail', { id: 12 });
    const t = JSON.parse(detail.body.disTemplate);
    const stockNo = t.tableOption.find((f: { name: string }) => f.name === 'stockNo');
    stockNo.chName = '入库编号';
    stockNo.configure.width = 200;
    t.formOption.push({ name: 'extraNote', chName: '附加说明', dataType: 'varchar', linked: false, configure: { sort: 99, show: 1 } });
    t.btnDIYOption = t.btnDIYOption.filter((b: { name: string }) => b.name !== 'genOrder');
    t.basicOption.add = false;
    expect((await admin.post('/api/generation/design', { id: 12, disTemplate: JSON.stringify(t) })).status).toBe(200);

    const screen = await admin.get('/api/screen/detail', { id: 50 });
    const st = JSON.parse(screen.body.disTemplate);
    st.layout.find((l: { i: string }) => l.i === 'category').w = 7;
    st.canvasConfigure.basic.timer = 30;
    expect((await admin.post('/api/screen/design', { id: 50, disTemplate: JSON.stringify(st) })).status).toBe(200);

    expect((await admin.post('/api/generation/delete', [17])).status).toBe(200);
    const add = await admin.post('/api/generation/add', { name: '对比新增', disMenu: { componentName: 'diffNew', name: '对比新增' } });
    expect(add.status).toBe(200);
    addedId = add.body.id;

    const before = snapshot();
    const doc = await diffJson();
    expect(snapshot()).toEqual(before);

    expect(doc.server).toBe(server.url);
    expect(doc.summary).toEqual({ added: 1, removed: 1, changed: 2, unchanged: 14 });
    expect(doc.definitions.map((d) => [d.status, d.kind, d.id, d.file])).toEqual([
      ['changed', 'screen', 50, 'definitions/screens/50-big-screen.json'],
      ['changed', 'view', 12, 'definitions/views/12-stock-in.json'],
      ['removed', 'view', 17, 'definitions/views/17-vehicle.json'],
      ['added', 'view', addedId, `definitions/views/${addedId}-diff-new.json`],
    ]);

    const view = doc.definitions.find((d) => d.id === 12);
    expect(view?.tableOption).toEqual({
      added: [],
      removed: [],
      changed: [
        {
          name: 'stockNo',
          changes: [
            { key: 'chName', old: '入库单号', new: '入库编号' },
            { key: 'configure.width', old: 170, new: 200 },
          ],
        },
      ],
    });
    expect(view?.formOption).toEqual({ added: ['extraNote'], removed: [], changed: [] });
    expect(view?.buttons).toEqual({ added: [], removed: ['genOrder'], changed: [] });
    expect(view?.options).toEqual([{ key: 'basicOption.add', old: true, new: false }]);
    expect(view?.menu).toEqual([]);
    expect(view?.template).toEqual([]);
    expect(view?.top?.map((c) => c.key)).toEqual(['updateTime']);

    const big = doc.definitions.find((d) => d.id === 50);
    expect(big?.layout).toEqual({ added: [], removed: [], changed: [{ name: 'category', changes: [{ key: 'w', old: 6, new: 7 }] }] });
    expect(big?.template).toEqual([{ key: 'canvasConfigure.basic.timer', old: 60, new: 30 }]);

    expect(doc.definitions.find((d) => d.id === 17)).toMatchObject({ name: '车辆信息' });
    expect(doc.definitions.find((d) => d.id === addedId)).toMatchObject({ name: '对比新增' });
  });

  it('prints the same as readable lines and writes nothing', async () => {
    const before = snapshot();
    const r = await cli('diff', '--sign-secret', SECRET);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^~ definitions\/views\/12-stock-in\.json/m);
    expect(r.out).toMatch(/stockNo(\n\s+.*)*\n\s+configure\.width: 170 → 200/);
    expect(r.out).toMatch(/extraNote/);
    expect(r.out).toMatch(/genOrder/);
    expect(r.out).toMatch(/basicOption\.add: true → false/);
    expect(r.out).toMatch(/^- definitions\/views\/17-vehicle\.json/m);
    expect(r.out).toMatch(new RegExp(`^\\+ definitions/views/${addedId}-diff-new\\.json`, 'm'));
    expect(r.out).not.toMatch(/updateTime/);
    expect(snapshot()).toEqual(before);
  });

  it('--exit-code gives 1 with differences and 0 once pulled', async () => {
    expect((await cli('diff', '--sign-secret', SECRET, '--exit-code')).code).toBe(1);
    expect((await cli('pull', '--sign-secret', SECRET)).code).toBe(0);
    const after = await cli('diff', '--sign-secret', SECRET, '--exit-code');
    expect(after.code).toBe(0);
    expect(after.out).toMatch(/no differences/);
  });

  it('reports a renamed definition as changed, with the new file', async () => {
    const detail = await admin.get('/api/generation/detail', { id: 15 });
    const upd = await admin.post('/api/generation/update', {
      id: 15,
      name: detail.body.name,
      disMenu: JSON.stringify({ componentName: 'inquiry', name: detail.body.name }),
    });
    expect(upd.status).toBe(200);
    const doc = await diffJson();
    expect(doc.definitions).toHaveLength(1);
    expect(doc.definitions[0]).toMatchObject({
      status: 'changed',
      file: 'definitions/views/15-disposal-inquiry.json',
      renamedTo: 'definitions/views/15-inquiry.json',
      menu: [{ key: 'componentName', old: 'disposalInquiry', new: 'inquiry' }],
    });
  });
});
