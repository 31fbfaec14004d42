import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { SCREENS, VIEWS } from '../../server/seed/ids.js';
import { SCREEN_SEEDS, UNDESIGNED_VIEW } from '../../server/seed/lowcode-definitions.js';
import { decodeDefinition, screenFileName, sortKeysDeep, viewFileName } from '../../src/model/index.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: ApiClient;
const dirs: string[] = [];
const listeners: http.Server[] = [];

beforeAll(async () => {
  delete process.env.WASTEGEN_SERVER;
  delete process.env.WASTEGEN_TOKEN;
  delete process.env.WASTEGEN_SIGN_SECRET;
  server = await startTestServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  for (const l of listeners) {
    l.close();
    l.closeAllConnections();
  }
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Run {
  code: number;
  out: string;
  err: string;
}

async function cli(...args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'wastegen', ...args], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-pull-'));
  dirs.push(dir);
  return dir;
}

const token = () => admin.token as string;

async function pull(dir: string, ...extra: string[]): Promise<Run> {
  return cli('pull', '--cwd', dir, '--server', server.url, '--token', token(), ...extra);
}

async function pullJson(dir: string, ...extra: string[]) {
  const r = await pull(dir, '--json', ...extra);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as {
    added: string[];
    changed: { file: string; renamedFrom?: string }[];
    removed: string[];
    unchanged: number;
    undesigned: string[];
    outOfScope: number;
    views: number;
    screens: number;
  };
}

/** Every file under definitions/ (relative), with its bytes and mtime. */
function snapshot(dir: string): Map<string, { text: string; mtime: number }> {
  const out = new Map<string, { text: string; mtime: number }>();
  const root = join(dir, 'definitions');
  const walk = (sub: string) => {
    for (const e of readdirSync(join(root, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else out.set(rel, { text: readFileSync(join(root, rel), 'utf8'), mtime: statSync(join(root, rel)).mtimeMs });
    }
  };
  if (existsSync(root)) walk('');
  return out;
}

/** Sets every definition file's times an hour back, so that any rewrite shows as a new mtime; returns dir. */
function agedFiles(dir: string): string {
  const past = new Date(Date.now() - 3_600_000);
  for (const rel of snapshot(dir).keys()) utimesSync(join(dir, 'definitions', rel), past, past);
  return dir;
}

function keysSortedDeep(v: unknown): boolean {
  if (Array.isArray(v)) return v.every(keysSortedDeep);
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    return keys.every((k, i) => i === 0 || (keys[i - 1] as string) < k) && Object.values(v).every(keysSortedDeep);
  }
  return true;
}

const noStack = (r: Run) => expect(`${r.out}\n${r.err}`).not.toMatch(/\n\s+at .+:\d+:\d+/);

const SEEDED_VIEWS = [...VIEWS, UNDESIGNED_VIEW].map((v) => `views/${viewFileName(v.id, v.componentName)}`);
const SEEDED_SCREENS = SCREEN_SEEDS.map((s) => `screens/${screenFileName(s.id, `vBuild${s.id}`, s.type)}`);

describe('wastegen pull', () => {
  const dir = project();

  it('writes every seeded view and screen, decoded and key-sorted', async () => {
    expect(SEEDED_VIEWS.length).toBe(10);
    expect(SCREENS.every((s) => SCREEN_SEEDS.some((x) => x.id === s.id))).toBe(true);
    const r = await pull(dir);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/\b17 added, 0 changed, 0 removed, 0 unchanged\b/);
    const all = [...snapshot(dir).keys()].sort();
    expect(all).toEqual(['data-views.json', ...SEEDED_SCREENS, ...SEEDED_VIEWS].sort());
    const files = all.filter((f) => f !== 'data-views.json');
    expect(files).toContain('views/12-stock-in.json');
    // The data views' ids and names, for push to find each chart's data view on another server.
    const dataViews = await admin.get('/api/data/list', { page: 0, size: 9999 });
    const index = JSON.parse(readFileSync(join(dir, 'definitions/data-views.json'), 'utf8'));
    expect(index).toEqual(
      (dataViews.body.content as { id: number; name: string }[]).map((v) => ({ id: v.id, name: v.name })).sort((x, y) => x.id - y.id),
    );

    for (const rel of files) {
      const [kind, name] = rel.split('/') as [string, string];
      const id = Number(name.split('-')[0]);
      const detail = await admin.get(kind === 'views' ? '/api/generation/detail' : '/api/screen/detail', { id });
      expect(detail.status).toBe(200);
      const text = readFileSync(join(dir, 'definitions', rel), 'utf8');
      // The save version belongs to the server's copy, not to the file.
      expect(detail.body.version).toEqual(expect.any(Number));
      const { version: _version, ...definition } = detail.body;
      expect(text).toBe(`${JSON.stringify(sortKeysDeep(decodeDefinition(definition)), null, 2)}\n`);
      const json = JSON.parse(text);
      expect(keysSortedDeep(json)).toBe(true);
      expect(typeof json.disMenu).toBe('object');
      if (id === UNDESIGNED_VIEW.id || id === 52) expect(json.disTemplate).toBeNull();
      else expect(typeof json.disTemplate).toBe('object');
    }
    const stockIn = JSON.parse(readFileSync(join(dir, 'definitions/views/12-stock-in.json'), 'utf8'));
    expect(stockIn.disMenu.componentName).toBe('stockIn');
    expect(Array.isArray(stockIn.disTemplate.tableOption)).toBe(true);
  });

  it('notes undesigned definitions as skipped, but writes them', async () => {
    const other = project();
    const r = await pullJson(other);
    expect(r.undesigned).toEqual([
      `definitions/screens/${screenFileName(52, 'vBuild52', 2)}`,
      `definitions/views/${viewFileName(21, 'pendingView')}`,
    ]);
    expect(r.added.length).toBe(17);
    expect(r.views).toBe(10);
    expect(r.screens).toBe(7);
  });

  it('pulls views and screens from a server without the data-view call, warns once and keeps data-views.json', async () => {
    const before = readFileSync(join(dir, 'definitions/data-views.json'), 'utf8');
    writeFileSync(join(dir, 'definitions/data-views.json'), '[\n  { "id": 999, "name": "旧索引" }\n]\n');
    const proxy = await dyingProxy(server.url, Number.POSITIVE_INFINITY, '/api/data/list');
    const text = await cli('pull', '--cwd', dir, '--server', proxy.url, '--token', token());
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/\b17 unchanged\b/);
    expect(text.err.split('\n')).toEqual([
      expect.stringMatching(/^warning: data views were not pulled \(.*HTTP 404.*\); data-views\.json was left as it was$/),
    ]);
    expect(readFileSync(join(dir, 'definitions/data-views.json'), 'utf8')).toBe('[\n  { "id": 999, "name": "旧索引" }\n]\n');
    const json = await pullJson(dir, '--server', proxy.url);
    expect(json).toMatchObject({ unchanged: 17, warnings: [expect.stringContaining('HTTP 404')] });
    writeFileSync(join(dir, 'definitions/data-views.json'), before);
  });

  it('a second pull reports everything unchanged and touches no file', async () => {
    const before = snapshot(agedFiles(dir));
    const r = await pullJson(dir);
    expect(r).toMatchObject({ added: [], changed: [], removed: [], unchanged: 17 });
    expect(snapshot(dir)).toEqual(before);
    const text = await pull(dir);
    expect(text.out).toMatch(/\b0 added, 0 changed, 0 removed, 17 unchanged\b/);
  });

  it('removes the file of a view deleted on the server', async () => {
    const del = await admin.post('/api/generation/delete', [17]);
    expect(del.status).toBe(200);
    const before = snapshot(dir);
    const r = await pullJson(dir);
    expect(r.removed).toEqual(['definitions/views/17-vehicle.json']);
    expect(r).toMatchObject({ added: [], changed: [], unchanged: 16 });
    expect(existsSync(join(dir, 'definitions/views/17-vehicle.json'))).toBe(false);
    const after = snapshot(dir);
    for (const [rel, f] of after) expect(f).toEqual(before.get(rel));
  });

  it('rewrites a changed view and only that one', async () => {
    const detail = await admin.get('/api/generation/detail', { id: 13 });
    const template = JSON.parse(detail.body.disTemplate);
    template.basicOption = { ...template.basicOption, add: false };
    expect((await admin.post('/api/generation/design', { id: 13, disTemplate: JSON.stringify(template) })).status).toBe(200);
    const before = snapshot(dir);
    const r = await pullJson(dir);
    expect(r).toMatchObject({ added: [], changed: [{ file: 'definitions/views/13-stock-out.json' }], removed: [], unchanged: 15 });
    const after = snapshot(dir);
    for (const [rel, f] of after) if (rel !== 'views/13-stock-out.json') expect(f).toEqual(before.get(rel));
    expect(JSON.parse(after.get('views/13-stock-out.json')?.text ?? '').disTemplate.basicOption.add).toBe(false);
    expect(readdirSync(join(dir, 'definitions/views')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('renames the file of a view whose slug changed, and writes a new one', async () => {
    const detail = await admin.get('/api/generation/detail', { id: 14 });
    const upd = await admin.post('/api/generation/update', {
      id: 14,
      name: detail.body.name,
      disMenu: JSON.stringify({ componentName: 'companyStore', name: detail.body.name }),
    });
    expect(upd.status).toBe(200);
    const add = await admin.post('/api/generation/add', { name: '新视图', disMenu: { componentName: 'brandNew', name: '新视图' } });
    expect(add.status).toBe(200);
    const r = await pullJson(dir);
    expect(r.changed).toEqual([{ file: 'definitions/views/14-company-store.json', renamedFrom: 'definitions/views/14-warehouse.json' }]);
    expect(r.added).toEqual([`definitions/views/${add.body.id}-brand-new.json`]);
    expect(r.undesigned).toContain(`definitions/views/${add.body.id}-brand-new.json`);
    expect(existsSync(join(dir, 'definitions/views/14-warehouse.json'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'definitions/views/14-company-store.json'), 'utf8')).id).toBe(14);
  });

  it('neither writes nor removes files outside include/exclude, and leaves foreign files alone', async () => {
    const other = project();
    writeFileSync(join(other, 'wastegen.config.json'), JSON.stringify({ exclude: ['views/15-*', 'views/999-*'] }));
    mkdirSync(join(other, 'definitions/views'), { recursive: true });
    writeFileSync(join(other, 'definitions/views/15-disposal-inquiry.json'), '{"stale":true}\n');
    writeFileSync(join(other, 'definitions/views/999-gone.json'), '{"gone":true}\n');
    writeFileSync(join(other, 'definitions/views/notes.json'), '{}\n');
    const r = await pullJson(other);
    expect(r.outOfScope).toBe(1);
    expect(r.removed).toEqual([]);
    expect(r.added).not.toContain('definitions/views/15-disposal-inquiry.json');
    expect(readFileSync(join(other, 'definitions/views/15-disposal-inquiry.json'), 'utf8')).toBe('{"stale":true}\n');
    expect(existsSync(join(other, 'definitions/views/999-gone.json'))).toBe(true);
    expect(existsSync(join(other, 'definitions/views/notes.json'))).toBe(true);
    expect(existsSync(join(other, 'definitions/views/12-stock-in.json'))).toBe(true);
  });
});

describe('wastegen pull failures (exit 3, nothing written)', () => {
  it('rejects a bad token with a hint', async () => {
    const dir = project();
    const r = await cli('pull', '--cwd', dir, '--server', server.url, '--token', 'not-a-token');
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/401/);
    expect(r.err).toMatch(/token/i);
    expect(r.err).toMatch(/--token|WASTEGEN_TOKEN/);
    noStack(r);
    expect(existsSync(join(dir, 'definitions'))).toBe(false);
  });

  it('takes the server and token from the environment, with or without Bearer', async () => {
    const dir = project();
    process.env.WASTEGEN_SERVER = server.url;
    process.env.WASTEGEN_TOKEN = token().replace(/^Bearer /, '');
    try {
      const r = await cli('pull', '--cwd', dir, '--json');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out).added.length).toBeGreaterThan(10);
    } finally {
      delete process.env.WASTEGEN_SERVER;
      delete process.env.WASTEGEN_TOKEN;
    }
  });

  it('says which permission is missing on 403', async () => {
    const producer = await server.login('producer');
    const r = await cli('pull', '--cwd', project(), '--server', server.url, '--token', producer.token as string);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/403/);
    expect(r.err).toMatch(/generation:list/);
    noStack(r);
  });

  it('reports an unreachable server with its URL', async () => {
    const closed = http.createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((ok) => closed.close(ok));
    const dir = project();
    const r = await cli('pull', '--cwd', dir, '--server', url, '--token', token());
    expect(r.code).toBe(3);
    expect(r.err).toContain(url);
    expect(r.err).toMatch(/--server|WASTEGEN_SERVER/);
    noStack(r);
    expect(existsSync(join(dir, 'definitions'))).toBe(false);
  });

  it('gives up on a server that does not answer, after --timeout', async () => {
    const silent = http.createServer(() => {});
    listeners.push(silent);
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const started = Date.now();
    const r = await cli('pull', '--cwd', project(), '--server', url, '--token', token(), '--timeout', '300');
    expect(r.code).toBe(3);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.err).toContain(url);
    expect(r.err).toMatch(/--timeout/);
    noStack(r);
  });

  it('reports a non-JSON answer with its content type and URL', async () => {
    const html = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body><div id="root"></div></body></html>');
    });
    listeners.push(html);
    await new Promise<void>((ok) => html.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
    const r = await cli('pull', '--cwd', project(), '--server', url, '--token', token());
    expect(r.code).toBe(3);
    expect(r.err).toContain('text/html');
    expect(r.err).toContain(`${url}/api/`);
    noStack(r);
  });

  it('is a usage error without a server', async () => {
    const r = await cli('pull', '--cwd', project(), '--token', token());
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--server|WASTEGEN_SERVER/);
    noStack(r);
    expect((await cli('pull', '--cwd', project(), '--server', 'ftp://x', '--token', token())).code).toBe(2);
    expect((await cli('pull', '--cwd', project(), '--server', server.url, '--concurrency', '0')).code).toBe(2);
  });

  it('leaves definitions/ exactly as it was when the server dies mid-pull', async () => {
    const dir = project();
    await pullJson(dir);
    // Changes a successful pull would write: a changed view, a deleted view, a new view.
    const detail = await admin.get('/api/generation/detail', { id: 12 });
    const template = JSON.parse(detail.body.disTemplate);
    template.basicOption = { ...template.basicOption, del: !template.basicOption?.del };
    expect((await admin.post('/api/generation/design', { id: 12, disTemplate: template })).status).toBe(200);
    expect((await admin.post('/api/generation/delete', [16])).status).toBe(200);
    expect(
      (await admin.post('/api/generation/add', { name: '又一个', disMenu: { componentName: 'another', name: '又一个' } })).status,
    ).toBe(200);
    const before = snapshot(agedFiles(dir));

    const proxy = await dyingProxy(server.url, 4);
    const r = await cli('pull', '--cwd', dir, '--server', proxy.url, '--token', token(), '--concurrency', '3');
    expect(proxy.details()).toBeGreaterThan(4);
    expect(r.code).toBe(3);
    expect(r.err).toContain(proxy.url);
    noStack(r);
    const after = snapshot(dir);
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect(after).toEqual(before);

    // The same pull against the live server does change the folder.
    const ok = await pullJson(dir);
    expect(ok.changed.map((c) => c.file)).toContain('definitions/views/12-stock-in.json');
    expect(ok.removed).toEqual(['definitions/views/16-contract.json']);
    expect(ok.added.length).toBe(1);
  });
});

/**
 * An HTTP proxy to the server that "dies" on the (n+1)th view detail request: it cuts that request
 * and every open connection and stops listening, so the rest of the pull finds nothing there. It
 * answers 404 for addresses starting with `missing`, as a server without that call would.
 */
async function dyingProxy(target: string, n: number, missing?: string): Promise<{ url: string; details: () => number }> {
  const t = new URL(target);
  let details = 0;
  const sockets = new Set<Socket>();
  const proxy = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/generation/detail') && ++details > n) {
      for (const s of sockets) s.destroy();
      proxy.close();
      return;
    }
    if (missing && req.url?.startsWith(missing)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"message":"Not Found"}');
      return;
    }
    const up = http.request({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  proxy.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  listeners.push(proxy);
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, details: () => details };
}
