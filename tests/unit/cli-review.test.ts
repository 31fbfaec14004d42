import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_DIR } from '../helpers/browser.js';

/**
 * `wastegen review` over a temporary git repository with two commits: the demo definitions, then
 * one planted change of each kind a reviewer must see. The review draws them in Chromium from the
 * built app (dist/review.html) and must report each, draw nothing for what did not change, and give
 * the same bytes twice.
 */

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'cli/bin.js');
const DEMO = join(ROOT, 'definitions');

let repo: string;

function git(...args: string[]) {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function wastegen(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, 'review', '--app', DIST_DIR, ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 << 20,
  });
  expect(`${r.stdout}${r.stderr}`, 'stack trace in the output').not.toMatch(/\n\s+at .+:\d+:\d+/);
  return { code: r.status, out: r.stdout, err: r.stderr };
}

type Json = Record<string, unknown>;
const read = (file: string): Json => JSON.parse(readFileSync(join(repo, 'definitions', file), 'utf8'));
const write = (file: string, json: Json) => writeFileSync(join(repo, 'definitions', file), `${JSON.stringify(json, null, 2)}\n`);
const items = (template: Json, list: string): Json[] => {
  const v = template[list];
  return (Array.isArray(v) ? v : (v as { items: Json[] }).items) as Json[];
};

/** Every file under a folder, path → bytes. */
function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

beforeAll(() => {
  if (!existsSync(join(DIST_DIR, 'review.html')))
    throw new Error(`${DIST_DIR}/review.html is missing: build the app first (npm run build)`);
  repo = mkdtempSync(join(tmpdir(), 'wastegen-review-'));
  mkdirSync(join(repo, 'definitions'));
  cpSync(DEMO, join(repo, 'definitions'), { recursive: true });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('-c', 'user.email=review@example.com', '-c', 'user.name=review', 'commit', '-qm', 'demo definitions');

  // A relabel and a removed button (stock in).
  const stockIn = read('views/12-stock-in.json');
  const t12 = stockIn.disTemplate as Json;
  const stockNo = items(t12, 'tableOption').find((f) => f.name === 'stockNo') as Json;
  stockNo.chName = '入库编号';
  t12.btnDIYOption = (t12.btnDIYOption as Json[]).filter((b) => b.name !== 'inquire');
  write('views/12-stock-in.json', stockIn);

  // A new field, and a column that shows a picked record's bare id (inquiries).
  const inquiry = read('views/15-disposal-inquiry.json');
  const t15 = inquiry.disTemplate as Json;
  const carrier = { name: 'carrierName', chName: '承运单位', dataType: 'varchar', linked: false };
  items(t15, 'tableOption').push({ ...carrier, configure: { show: true, sort: 99, width: 160 } });
  items(t15, 'formOption').push({ ...carrier, configure: { show: 1, sort: 99 } });
  const company = items(t15, 'tableOption').find((f) => f.name === 'companyId') as Json;
  company.configure = { show: true, sort: 2, width: 220 };
  write('views/15-disposal-inquiry.json', inquiry);

  // A column pushed under the fixed 操作 column at 1366 px (stock out: its first column widened).
  const stockOut = read('views/13-stock-out.json');
  const first = items(stockOut.disTemplate as Json, 'tableOption')[0] as Json;
  first.configure = { ...(first.configure as Json), width: 720 };
  write('views/13-stock-out.json', stockOut);

  // A big screen retitled.
  const screen = read('screens/50-big-screen.json');
  screen.name = `${screen.name}（新版）`;
  write('screens/50-big-screen.json', screen);

  git('add', '.');
  git('-c', 'user.email=review@example.com', '-c', 'user.name=review', 'commit', '-qm', 'planted changes');
});

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

interface Report {
  summary: { changed: number; added: number; removed: number; unchanged: number; warnings: number; newWarnings: number };
  definitions: {
    kind: string;
    id: number;
    status: string;
    problems: string[];
    changes: string[];
    pictures: { state: string; viewport: string; before?: string; after?: string; same?: boolean }[];
    warnings: { check: string; field: string; picture: string; new: boolean; message: string }[];
  }[];
}

describe('wastegen review', () => {
  let report: Report;
  let first: { code: number | null; out: string; err: string };

  beforeAll(() => {
    first = wastegen(['--base', 'HEAD~1', '--out', 'review', '--json', '--fail-on', 'new-warning']);
    report = JSON.parse(first.out);
  }, 240_000);

  const card = (kind: string, id: number) => {
    const d = report.definitions.find((x) => x.kind === kind && x.id === id);
    expect(d, `${kind} ${id} in the report`).toBeDefined();
    return d as Report['definitions'][number];
  };

  it('reports each changed definition and draws none of the unchanged', () => {
    expect(report.definitions.map((d) => `${d.kind}-${d.id}`)).toEqual(['screen-50', 'view-12', 'view-13', 'view-15']);
    expect(report.summary).toMatchObject({ changed: 4, added: 0, removed: 0, unchanged: 13 });
    const folders = readdirSync(join(repo, 'review')).filter((n) => statSync(join(repo, 'review', n)).isDirectory());
    expect(folders.sort()).toEqual(['screen-50', 'view-12', 'view-13', 'view-15']);
  });

  it('names the relabel and the removed button in Chinese', () => {
    const changes = card('view', 12).changes;
    expect(changes).toContain('列表字段「入库编号」(stockNo) chName（标题）：入库单号 → 入库编号');
    expect(changes.some((c) => /^按钮「.+」\(inquire\) 删除$/.test(c))).toBe(true);
  });

  it('names the new field, and warns of the bare id it now shows', () => {
    const d = card('view', 15);
    expect(d.changes).toContain('列表字段「承运单位」(carrierName) 新增');
    expect(d.changes).toContain('表单字段「承运单位」(carrierName) 新增');
    const bare = d.warnings.filter((w) => w.check === 'bare-id');
    expect(bare.length).toBeGreaterThan(0);
    expect(bare.every((w) => w.field === '处置企业' && w.new)).toBe(true);
    expect(bare.map((w) => w.picture)).toContain('view-15/list-1366x768-after.png');
  });

  it('warns of a column that falls under 操作 at 1366 px, and not at 1920 px', () => {
    const under = card('view', 13).warnings.filter((w) => w.check === 'column-under-operation' && w.new);
    expect(under.length).toBeGreaterThan(0);
    expect(under.every((w) => w.picture === 'view-13/list-1366x768-after.png')).toBe(true);
  });

  it('draws every state of a view at both sizes, before and after, as PNG files', () => {
    const d = card('view', 12);
    const states = [...new Set(d.pictures.map((p) => p.state))];
    expect(states).toEqual(['list', 'add', 'edit', 'look', 'form']);
    // A form with relation rules is also drawn on a row on their other side.
    expect([...new Set(card('view', 15).pictures.map((p) => p.state))]).toEqual(['list', 'add', 'edit', 'edit-other', 'look', 'form']);
    for (const p of d.pictures) {
      expect(p.viewport).toMatch(/^(1366×768|1920×1080)$/);
      for (const f of [p.before, p.after]) {
        expect(f, `${p.state} ${p.viewport}`).toBeDefined();
        const bytes = readFileSync(join(repo, 'review', f as string));
        expect(bytes.subarray(1, 4).toString()).toBe('PNG');
        const width = bytes.readUInt32BE(16);
        expect(`${width}`).toBe(p.viewport.split('×')[0]);
      }
    }
    // The relabelled column shows on the list; the full-page form has no list, so it did not change.
    expect(d.pictures.find((p) => p.state === 'list' && p.viewport === '1366×768')?.same).toBe(false);
    expect(d.pictures.filter((p) => p.state === 'form').every((p) => p.same === true)).toBe(true);
    expect(card('screen', 50).pictures.map((p) => p.state)).toEqual(['screen', 'screen']);
  });

  it('writes index.html with a card per definition and summary.md for the pull request', () => {
    const html = readFileSync(join(repo, 'review/index.html'), 'utf8');
    for (const id of ['view-12', 'view-13', 'view-15', 'screen-50']) expect(html).toContain(`<article class="card" id="${id}">`);
    expect(html).toContain('src="view-12/list-1366x768-before.png"');
    expect(html).toContain('mix-blend-mode:difference');
    expect(html).toContain('入库单号 → 入库编号');
    const md = readFileSync(join(repo, 'review/summary.md'), 'utf8');
    expect(md).toMatch(/^## wastegen review：4 个定义有变化/);
    expect(md).toContain('### 视图 15 处置询价（修改）');
    expect(md).toMatch(/⚠️ \*\*新\*\* .*处置企业/);
    expect(md.split('\n').length).toBeLessThan(120);
  });

  it('fails on new warnings when asked, and two runs give identical bytes', () => {
    expect(first.code).toBe(1);
    expect(report.summary.newWarnings).toBeGreaterThan(0);
    const again = wastegen(['--base', 'HEAD~1', '--out', 'review-again', '--fail-on', 'warning']);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/review: 4 changed, 0 added, 0 removed, 13 unchanged/);
    const a = tree(join(repo, 'review'));
    const b = tree(join(repo, 'review-again'));
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    const differing = [...a].filter(([k, v]) => !v.equals(b.get(k) as Buffer)).map(([k]) => k);
    expect(differing.join(', ')).toBe('');
  }, 240_000);

  // The headless shell (when installed) draws frames the review asks for; Debian's full chromium draws
  // at its display's rate. Both draw a view's pages to the same bytes; a big screen's canvas text is
  // rasterised differently by the two browsers, so its pictures are only required to be there.
  it('draws the same view pictures with the full chromium as with the headless shell', () => {
    const r = wastegen(['--base', 'HEAD~1', '--out', 'review-chromium'], { CHROMIUM_PATH: '/usr/bin/chromium' });
    expect(r.out).toMatch(/review: 4 changed, 0 added, 0 removed, 13 unchanged/);
    const a = tree(join(repo, 'review'));
    const b = tree(join(repo, 'review-chromium'));
    const pictures = [...a.keys()].filter((k) => k.endsWith('.png'));
    expect([...b.keys()].filter((k) => k.endsWith('.png')).sort()).toEqual(pictures.sort());
    const views = pictures.filter((k) => k.startsWith('view-'));
    expect(views.length).toBeGreaterThan(0);
    const differing = views.filter((k) => !(a.get(k) as Buffer).equals(b.get(k) as Buffer));
    expect(differing.join(', ')).toBe('');
  }, 240_000);

  it('draws nothing and starts no browser when no definition changed', () => {
    const r = wastegen(['--base', 'HEAD', '--out', 'nothing'], { CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/review: no definition changed since/);
    expect(readFileSync(join(repo, 'nothing/summary.md'), 'utf8')).toContain('0 个定义有变化');
  });

  it('draws an added definition after only, a removed one before only, and fails on an invalid one with its pointers', () => {
    // Working-tree changes against HEAD, undone afterwards.
    const views = join(repo, 'definitions/views');
    const copy = read('views/14-warehouse.json');
    copy.id = 99;
    copy.name = '备用仓库';
    (copy.disMenu as Json).componentName = 'warehouseSpare';
    write('views/99-warehouse-spare.json', copy);
    rmSync(join(views, '20-logistics-order.json'));
    const broken = read('views/18-leave-message.json');
    const field = items(broken.disTemplate as Json, 'tableOption')[0] as Json;
    field.configure = { ...(field.configure as Json), search: 'maybe' };
    write('views/18-leave-message.json', broken);
    try {
      const r = wastegen(['--base', 'HEAD', '--out', 'lifecycle', '--json']);
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.out) as Report;
      const byId = new Map(doc.definitions.map((d) => [d.id, d]));
      expect(byId.get(99)?.status).toBe('added');
      expect(byId.get(99)?.pictures.every((p) => p.after && !p.before)).toBe(true);
      expect(byId.get(20)?.status).toBe('removed');
      expect(byId.get(20)?.pictures.every((p) => p.before && !p.after)).toBe(true);
      expect(byId.get(18)?.problems).toEqual([
        expect.stringMatching(/^definitions\/views\/18-leave-message\.json#\/disTemplate\/tableOption\/0\/configure\/search: /),
      ]);
      expect(readFileSync(join(repo, 'lifecycle/summary.md'), 'utf8')).toContain(
        '❌ 定义有误：`definitions/views/18-leave-message.json#/disTemplate/tableOption/0/configure/search',
      );
    } finally {
      git('checkout', '--', 'definitions');
      rmSync(join(views, '99-warehouse-spare.json'));
    }
  }, 240_000);

  it('refuses an unknown base revision with a clear message', () => {
    const r = wastegen(['--base', 'no-such-branch']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--base no-such-branch: git knows no such revision');
  });
});
