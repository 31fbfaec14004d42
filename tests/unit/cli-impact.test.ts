import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';

/**
 * `wastegen check --impact` on a project with three hand-written app files (tests/fixtures/basic-view/impact):
 * one reads fields of a generated record type, one imports a generated module's export, one names
 * route paths. Changing the definitions so that each loses what its file uses must name the file,
 * line and column, what it uses and why; an unrelated change must report nothing.
 */

const ROOT = join(import.meta.dirname, '../..');
const SCENARIO = join(ROOT, 'tests/fixtures/basic-view');
let dir: string;

beforeAll(async () => {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'tmp', 'impact-'));
  cpSync(join(SCENARIO, 'definitions'), join(dir, 'definitions'), { recursive: true });
  mkdirSync(join(dir, 'src/pages'), { recursive: true });
  for (const f of readdirSync(join(SCENARIO, 'impact')).filter((f) => f.endsWith('.fixture')))
    cpSync(join(SCENARIO, 'impact', f), join(dir, 'src/pages', f.replace(/\.fixture$/, '')));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../tsconfig.json',
      compilerOptions: { paths: { '@wastegen/model': ['../../src/model/index.ts'], '@wastegen/engine': ['../../src/engine/index.ts'] } },
      include: ['src', 'generated'],
    }),
  );
  expect((await wastegen('generate')).code).toBe(0);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function wastegen(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'wastegen', ...args, '--cwd', dir], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const VIEW = 'definitions/views/101-stock-in.json';

function editView(file: string, edit: (json: any) => void): () => void {
  const path = join(dir, file);
  const original = readFileSync(path, 'utf8');
  const json = JSON.parse(original);
  edit(json);
  writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`);
  return () => writeFileSync(path, original);
}

/** Line and column (1-based) of the first occurrence of `text` after `after` in a file of the project. */
function position(file: string, text: string, after = ''): string {
  const source = readFileSync(join(dir, file), 'utf8');
  const index = source.indexOf(text, after ? source.indexOf(after) : 0);
  const before = source.slice(0, index).split('\n');
  return `${file}:${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}

describe('wastegen check --impact', () => {
  it('reports nothing when no hand-written file uses what changes', async () => {
    const restore = editView(VIEW, (json) => {
      json.name = '危废入库（改）';
    });
    try {
      const r = await wastegen('check', '--impact');
      expect(r.err).not.toMatch(/ uses /);
      expect(r.out).toMatch(/impact: no hand-written file uses what the change removes or retypes/);
    } finally {
      restore();
    }
    const clean = await wastegen('check', '--impact');
    expect(clean.code, clean.err).toBe(0);
  }, 120_000);

  it('names a removed and a retyped property of a generated record type', async () => {
    const restore = editView(VIEW, (json) => {
      for (const list of [json.disTemplate.formOption, json.disTemplate.tableOption]) {
        const i = list.findIndex((f: any) => f.name === 'wasteName');
        if (i >= 0) list.splice(i, 1);
        for (const f of list) if (f.name === 'quantity') f.dataType = 'varchar';
      }
    });
    try {
      const r = await wastegen('check', '--impact');
      expect(r.code).toBe(1);
      const file = 'src/pages/stock-report.tsx';
      expect(r.err).toContain(
        `${position(file, 'wasteName', '<li')} uses StockInRecord.wasteName; view 101 (definitions/views/101-stock-in.json) no longer has this field`,
      );
      expect(r.err).toMatch(
        new RegExp(
          `${position(file, 'quantity', 'sum +').replace(/\./g, '\\.')} uses StockInRecord\\.quantity; view 101 \\(definitions/views/101-stock-in\\.json\\) changes this field from number to text`,
        ),
      );
      expect(r.err).not.toMatch(/orderNo/);
    } finally {
      restore();
    }
  }, 120_000);

  it('names a removed export of a generated module and a removed route path', async () => {
    const path = join(dir, 'definitions/views/102-stock-out.json');
    const original = readFileSync(path, 'utf8');
    unlinkSync(path);
    try {
      const r = await wastegen('check', '--impact');
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        `${position('src/pages/stock-out-form.ts', 'stockOutSchema')} uses stockOutSchema; view 102 (definitions/views/102-stock-out.json) is gone, and with it generated/views/102-stock-out/schema.ts`,
      );
      expect(r.err).toContain(
        `${position('src/pages/nav.ts', "'/dev-tools/temp/page/stockOut/102'")} uses the route /dev-tools/temp/page/stockOut/102; the route of view 102 (views/102-stock-out/page) is gone`,
      );
      expect(r.err).not.toContain('stockIn/101;');
      expect(r.err).toMatch(/impact: 2 uses in 2 hand-written file\(s\)/);
      const json = await wastegen('check', '--impact', '--json');
      expect(
        JSON.parse(json.out)
          .impact.map((i: { kind: string }) => i.kind)
          .sort(),
      ).toEqual(['export', 'route']);
    } finally {
      writeFileSync(path, original);
    }
  }, 120_000);
});
