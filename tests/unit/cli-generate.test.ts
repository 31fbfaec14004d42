import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';

/**
 * `wastegen generate` and `wastegen check`, run in-process on throw-away projects built from the
 * golden fixtures (tests/fixtures/<scenario>/definitions in, expected/ = generated/ out).
 */

const FIXTURES = join(import.meta.dirname, '../fixtures');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  out: string[];
  err: string[];
}

/** Runs `wastegen …args`; no output line may ever be a stack frame, and no run may be an internal error. */
async function wastegen(...args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'wastegen', ...args], {
    out: (l) => out.push(...l.split('\n')),
    err: (l) => err.push(...l.split('\n')),
  });
  for (const line of [...out, ...err]) expect(line, 'stack frame in the output').not.toContain('    at ');
  expect(code, [...out, ...err].join('\n')).toBeLessThanOrEqual(3);
  return { code, out, err };
}

/** A fresh project holding the definitions of the given fixture scenarios (later ones win on clashes). */
function project(...scenarios: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-'));
  made.push(dir);
  for (const s of scenarios) cpSync(join(FIXTURES, s, 'definitions'), join(dir, 'definitions'), { recursive: true });
  return dir;
}

/** Every entry under dir (dot files and folders too; folders end in /), sorted. */
function entries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => {
      const rel = join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/');
      return e.isDirectory() ? `${rel}/` : rel;
    })
    .sort();
}

const files = (dir: string) => entries(dir).filter((e) => !e.endsWith('/'));

interface Snap {
  bytes: string;
  mtimeMs: number;
  ino: number;
}

/** Bytes, mtime and inode of every file under dir, and the folder list. */
function snapshot(dir: string): { entries: string[]; files: Record<string, Snap> } {
  const out: Record<string, Snap> = {};
  for (const f of files(dir)) {
    const st = statSync(join(dir, f));
    out[f] = { bytes: readFileSync(join(dir, f)).toString('base64'), mtimeMs: st.mtimeMs, ino: st.ino };
  }
  return { entries: entries(dir), files: out };
}

/** Moves every file's mtime into the past, so that any rewrite shows in mtimeMs whatever the clock's resolution. */
function age(dir: string): void {
  const past = new Date('2020-01-01T00:00:00Z');
  for (const f of files(dir)) utimesSync(join(dir, f), past, past);
}

function counts(run: Run): { added: number; updated: number; removed: number; unchanged: number } {
  const line = run.out.find((l) => /\d+ added, \d+ updated, \d+ removed, \d+ unchanged/.test(l));
  expect(line, run.out.join('\n')).toBeDefined();
  const m = /(\d+) added, (\d+) updated, (\d+) removed, (\d+) unchanged/.exec(line as string) as RegExpExecArray;
  return { added: Number(m[1]), updated: Number(m[2]), removed: Number(m[3]), unchanged: Number(m[4]) };
}

function expectMatchesFixture(generatedDir: string, scenario: string): void {
  const expectedDir = join(FIXTURES, scenario, 'expected');
  expect(files(generatedDir)).toEqual(files(expectedDir));
  for (const f of files(expectedDir)) {
    expect(readFileSync(join(generatedDir, f)).equals(readFileSync(join(expectedDir, f))), f).toBe(true);
  }
}

function problemsOf(scenario: string): { code: string; pointer: string; file?: string }[] {
  return JSON.parse(readFileSync(join(FIXTURES, scenario, 'problems.json'), 'utf8')).errors;
}

/** A line `file#pointer: message` (message not empty) for the problem. */
function hasProblemLine(lines: string[], file: string, pointer: string): boolean {
  const head = `${file}#${pointer}: `;
  return lines.some((l) => l.startsWith(head) && l.length > head.length);
}

function editJson(file: string, edit: (json: Record<string, any>) => void): void {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  edit(json);
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

describe('wastegen generate', () => {
  for (const scenario of ['basic-view', 'screens', 'hostile-labels']) {
    it(`writes exactly the expected files of ${scenario}`, async () => {
      const dir = project(scenario);
      const r = await wastegen('generate', '--cwd', dir);
      expect(r.code).toBe(0);
      expectMatchesFixture(join(dir, 'generated'), scenario);
      const n = files(join(FIXTURES, scenario, 'expected')).length;
      expect(counts(r)).toEqual({ added: n, updated: 0, removed: 0, unchanged: 0 });
      // No temp file is left behind.
      expect(entries(join(dir, 'generated')).filter((e) => e.includes('.wastegen-tmp-'))).toEqual([]);
    });
  }

  it('is idempotent: a second run writes nothing and leaves definitions/ alone', async () => {
    const dir = project('basic-view');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    age(join(dir, 'generated'));
    const generated = snapshot(join(dir, 'generated'));
    const definitions = snapshot(join(dir, 'definitions'));

    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(0);
    expect(counts(r)).toEqual({ added: 0, updated: 0, removed: 0, unchanged: Object.keys(generated.files).length });
    expect(snapshot(join(dir, 'generated'))).toEqual(generated);
    expect(snapshot(join(dir, 'definitions'))).toEqual(definitions);
    expectMatchesFixture(join(dir, 'generated'), 'basic-view');
  });

  it('rewrites only the files whose bytes change after one definition is edited', async () => {
    const dir = project('basic-view');
    const gen = join(dir, 'generated');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    age(gen);
    const before = snapshot(gen);

    editJson(join(dir, 'definitions/views/101-stock-in.json'), (j) => {
      j.disTemplate.basicOption.operationWidth = 321;
    });
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(0);
    const after = snapshot(gen);
    expect(Object.keys(after.files)).toEqual(Object.keys(before.files));

    const changedBytes = Object.keys(after.files).filter((f) => after.files[f]?.bytes !== before.files[f]?.bytes);
    const touched = Object.keys(after.files).filter(
      (f) => after.files[f]?.mtimeMs !== before.files[f]?.mtimeMs || after.files[f]?.ino !== before.files[f]?.ino,
    );
    // Only view 101's output (and routes.ts, which carries its content hash) can change …
    expect(changedBytes).toContain('views/101-stock-in/page.tsx');
    for (const f of changedBytes) expect(f).toMatch(/^(views\/101-stock-in\/|routes\.ts$)/);
    // … and exactly those files are written; view 102's files keep their inode and mtime.
    expect(touched).toEqual(changedBytes);
    for (const f of ['views/102-stock-out/page.tsx', 'views/102-stock-out/schema.ts']) expect(after.files[f]).toEqual(before.files[f]);
    expect(counts(r)).toEqual({
      added: 0,
      updated: changedBytes.length,
      removed: 0,
      unchanged: Object.keys(after.files).length - changedBytes.length,
    });

    expect((await wastegen('check', '--cwd', dir)).code).toBe(0);
  });

  it('removes orphaned files and the folders they leave empty', async () => {
    const dir = project('basic-view');
    const gen = join(dir, 'generated');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    mkdirSync(join(gen, 'views/999-old/deep'), { recursive: true });
    writeFileSync(join(gen, 'views/999-old/page.tsx'), 'export {};\n');
    writeFileSync(join(gen, 'views/999-old/deep/schema.ts'), 'export {};\n');
    writeFileSync(join(gen, 'stray.ts'), 'export {};\n');

    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(0);
    expect(counts(r)).toMatchObject({ added: 0, updated: 0, removed: 3 });
    expect(existsSync(join(gen, 'views/999-old'))).toBe(false);
    expect(existsSync(join(gen, 'stray.ts'))).toBe(false);
    expectMatchesFixture(gen, 'basic-view');
    // The folders still in use stay.
    expect(entries(gen).filter((e) => e.endsWith('/'))).toEqual(['views/', 'views/101-stock-in/', 'views/102-stock-out/']);
  });

  it('restores missing and hand-edited files', async () => {
    const dir = project('basic-view');
    const gen = join(dir, 'generated');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    writeFileSync(join(gen, 'views/101-stock-in/page.tsx'), '// edited by hand\n');
    rmSync(join(gen, 'views/102-stock-out'), { recursive: true });
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(0);
    expect(counts(r)).toEqual({ added: 2, updated: 1, removed: 0, unchanged: 2 });
    expectMatchesFixture(gen, 'basic-view');
  });

  it('writes nothing at all when one definition among valid ones is invalid, and prints every problem', async () => {
    const dir = project('basic-view');
    const gen = join(dir, 'generated');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    // A valid edit that would update generated/ if anything were written …
    editJson(join(dir, 'definitions/views/102-stock-out.json'), (j) => {
      j.disTemplate.basicOption.operationWidth = 333;
    });
    // … and an invalid definition beside it.
    cpSync(join(FIXTURES, 'error-coercion/definitions/views/301-vehicle.json'), join(dir, 'definitions/views/301-vehicle.json'));
    age(gen);
    const before = snapshot(gen);

    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(1);
    const problems = problemsOf('error-coercion');
    expect(problems.length).toBeGreaterThan(1);
    for (const p of problems) expect(hasProblemLine(r.err, 'definitions/views/301-vehicle.json', p.pointer), p.pointer).toBe(true);
    expect(r.err.some((l) => /^\s*hint: \S/.test(l))).toBe(true);
    expect(r.out.some((l) => /\d+ added/.test(l))).toBe(false);
    expect(snapshot(gen)).toEqual(before);
  });

  it('with --json, prints the problems as one document on stdout when it fails', async () => {
    const dir = project('basic-view');
    cpSync(join(FIXTURES, 'error-coercion/definitions/views/301-vehicle.json'), join(dir, 'definitions/views/301-vehicle.json'));
    const r = await wastegen('generate', '--cwd', dir, '--json');
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out.join('\n'));
    expect(doc).toMatchObject({ ok: false, error: expect.stringMatching(/nothing was written/) });
    const got = doc.problems.map((p: { file: string; code: string; pointer: string }) => `${p.file} ${p.code} ${p.pointer}`).sort();
    expect(got).toEqual(
      problemsOf('error-coercion')
        .map((p) => `definitions/views/301-vehicle.json ${p.code} ${p.pointer}`)
        .sort(),
    );
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  });

  it('names both files when two definitions map to one output folder, and writes nothing', async () => {
    const dir = project('basic-view');
    const twin = join(dir, 'definitions/views/102-stock out.json');
    cpSync(join(dir, 'definitions/views/102-stock-out.json'), twin);
    editJson(twin, (j) => {
      j.id = 9102;
    });
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(1);
    const a = 'definitions/views/102-stock-out.json';
    const b = 'definitions/views/102-stock out.json';
    expect(r.err).toContain(`${a}#: its pages would go to generated/views/102-stock-out/, as those of ${b}`);
    expect(r.err).toContain(`${b}#: its pages would go to generated/views/102-stock-out/, as those of ${a}`);
    expect(r.err.join('\n')).not.toContain('emitted twice');
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  });

  it('prints the problems of every invalid file (several files, JSON errors too) and writes nothing', async () => {
    const dir = project('basic-view', 'error-json');
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(1);
    const problems = problemsOf('error-json');
    for (const p of problems) expect(hasProblemLine(r.err, p.file as string, p.pointer), `${p.file}#${p.pointer}`).toBe(true);
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  });

  it('reports undesigned definitions as skipped and prints warnings without failing', async () => {
    const dir = project('loose-undesigned');
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(0);
    for (const f of ['definitions/views/302-pending.json', 'definitions/views/303-empty-text.json']) {
      expect(
        r.out.some((l) => l.startsWith('skipped') && l.includes(f)),
        f,
      ).toBe(true);
    }
    const warnings: { code: string; pointer: string; file: string }[] = JSON.parse(
      readFileSync(join(FIXTURES, 'loose-undesigned/problems.json'), 'utf8'),
    ).warnings;
    for (const w of warnings) expect(hasProblemLine(r.err, w.file, w.pointer), w.pointer).toBe(true);
    expectMatchesFixture(join(dir, 'generated'), 'loose-undesigned');

    const c = await wastegen('check', '--cwd', dir);
    expect(c.code).toBe(0);
    const j = await wastegen('check', '--cwd', dir, '--json');
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.out.join('\n'));
    expect(doc.ok).toBe(true);
    expect(doc.problems.map((p: { code: string }) => p.code)).toEqual(['W_DATATYPE', 'W_DATATYPE']);
    expect(doc.skipped.map((s: { id: number }) => s.id).sort()).toEqual([302, 303]);
  });

  it('works on a project whose definitions/ is empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wastegen-'));
    made.push(dir);
    mkdirSync(join(dir, 'definitions'));
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(0);
    expect(files(join(dir, 'generated'))).toEqual(['routes.ts']);
    expect((await wastegen('check', '--cwd', dir)).code).toBe(0);
  });

  it('refuses a project whose definitions folder is not there, and leaves generated/ as it was', async () => {
    const dir = project('basic-view');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    const before = snapshot(join(dir, 'generated'));
    rmSync(join(dir, 'definitions'), { recursive: true });
    for (const args of [['generate'], ['generate', '--no-cache'], ['check'], ['build', '--no-typecheck']]) {
      const r = await wastegen(...args, '--cwd', dir);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err, args.join(' ')).toContain(
        'wastegen: the definitions folder definitions/ does not exist (the default definitionsDir); nothing was written',
      );
      expect(r.err.join('\n')).toMatch(/hint: run `wastegen pull`/);
    }
    for (const args of [
      ['generate', '--json'],
      ['check', '--json'],
    ]) {
      const r = await wastegen(...args, '--cwd', dir);
      expect(r.code, args.join(' ')).toBe(1);
      expect(JSON.parse(r.out.join('\n')), args.join(' ')).toMatchObject({
        ok: false,
        error: expect.stringContaining('definitions/ does not exist'),
      });
    }
    // A file where the folder should be is no folder either.
    writeFileSync(join(dir, 'definitions'), '');
    const f = await wastegen('generate', '--cwd', dir);
    expect(f.code).toBe(1);
    expect(f.err.join('\n')).toContain('the definitions folder definitions/ is not a folder');
    expect(snapshot(join(dir, 'generated'))).toEqual(before);
  });
});

describe('wastegen check', () => {
  it('exits 0 when generated/ is up to date, and writes nothing', async () => {
    const dir = project('basic-view', 'screens');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    age(join(dir, 'generated'));
    const before = snapshot(dir);
    const r = await wastegen('check', '--cwd', dir);
    expect(r.code).toBe(0);
    const j = await wastegen('check', '--cwd', dir, '--json');
    expect(j.code).toBe(0);
    expect(JSON.parse(j.out.join('\n'))).toMatchObject({ ok: true, stale: [], missing: [], orphaned: [] });
    expect(snapshot(dir)).toEqual(before);
  });

  it('lists stale, missing and orphaned files, exits 1, and writes nothing (text and --json)', async () => {
    const dir = project('basic-view');
    const gen = join(dir, 'generated');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    writeFileSync(join(gen, 'views/101-stock-in/page.tsx'), `${readFileSync(join(gen, 'views/101-stock-in/page.tsx'), 'utf8')}// edited\n`);
    unlinkSync(join(gen, 'views/102-stock-out/schema.ts'));
    mkdirSync(join(gen, 'views/999-old'));
    writeFileSync(join(gen, 'views/999-old/page.tsx'), 'export {};\n');
    age(gen);
    const before = snapshot(dir);

    const r = await wastegen('check', '--cwd', dir);
    expect(r.code).toBe(1);
    const lines = [...r.out, ...r.err];
    expect(lines.some((l) => /^\s*stale\s+generated\/views\/101-stock-in\/page\.tsx$/.test(l))).toBe(true);
    expect(lines.some((l) => /^\s*missing\s+generated\/views\/102-stock-out\/schema\.ts$/.test(l))).toBe(true);
    expect(lines.some((l) => /^\s*orphaned\s+generated\/views\/999-old\/page\.tsx$/.test(l))).toBe(true);
    expect(r.err.some((l) => /^\s*hint: \S/.test(l))).toBe(true);
    expect(snapshot(dir)).toEqual(before);

    const j = await wastegen('check', '--cwd', dir, '--json');
    expect(j.code).toBe(1);
    const doc = JSON.parse(j.out.join('\n'));
    expect(doc).toMatchObject({
      ok: false,
      problems: [],
      stale: ['generated/views/101-stock-in/page.tsx'],
      missing: ['generated/views/102-stock-out/schema.ts'],
      orphaned: ['generated/views/999-old/page.tsx'],
    });
    expect(snapshot(dir)).toEqual(before);
  });

  it('reports every file missing before the first generate', async () => {
    const dir = project('basic-view');
    const j = await wastegen('check', '--cwd', dir, '--json');
    expect(j.code).toBe(1);
    const doc = JSON.parse(j.out.join('\n'));
    expect(doc.missing).toEqual(files(join(FIXTURES, 'basic-view/expected')).map((f) => `generated/${f}`));
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  });

  it('ignores .wastegen-tmp-* leftovers of an interrupted run', async () => {
    const dir = project('basic-view');
    const gen = join(dir, 'generated');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    writeFileSync(join(gen, 'views/101-stock-in/.wastegen-tmp-4242-abc'), 'half a fi');
    writeFileSync(join(gen, '.wastegen-tmp-4242-def'), '');
    const r = await wastegen('check', '--cwd', dir);
    expect(r.code).toBe(0);
    const j = await wastegen('check', '--cwd', dir, '--json');
    expect(JSON.parse(j.out.join('\n'))).toMatchObject({ ok: true, orphaned: [] });
  });

  it('exits 1 with the problems of an invalid definition (text and --json)', async () => {
    const dir = project('basic-view');
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    cpSync(join(FIXTURES, 'error-coercion/definitions/views/301-vehicle.json'), join(dir, 'definitions/views/301-vehicle.json'));
    age(join(dir, 'generated'));
    const before = snapshot(dir);
    const problems = problemsOf('error-coercion');

    const r = await wastegen('check', '--cwd', dir);
    expect(r.code).toBe(1);
    for (const p of problems) expect(hasProblemLine(r.err, 'definitions/views/301-vehicle.json', p.pointer), p.pointer).toBe(true);
    expect(r.err.some((l) => /^\s*hint: \S/.test(l))).toBe(true);

    const j = await wastegen('check', '--cwd', dir, '--json');
    expect(j.code).toBe(1);
    const doc = JSON.parse(j.out.join('\n'));
    expect(doc.ok).toBe(false);
    for (const key of ['problems', 'stale', 'missing', 'orphaned']) expect(Array.isArray(doc[key]), key).toBe(true);
    const got = doc.problems.map((p: { code: string; pointer: string; file: string }) => `${p.file} ${p.code} ${p.pointer}`).sort();
    expect(got).toEqual(problems.map((p) => `definitions/views/301-vehicle.json ${p.code} ${p.pointer}`).sort());
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('usage', () => {
  it('exits 2 on an unknown command or option', async () => {
    expect((await wastegen('frobnicate')).code).toBe(2);
    expect((await wastegen('generate', '--frobnicate')).code).toBe(2);
    expect((await wastegen('check', '--no-such-flag')).code).toBe(2);
    expect((await wastegen('--frobnicate')).code).toBe(2);
    const r = await wastegen('generate', '--cwd');
    expect(r.code).toBe(2);
  });

  for (const cmd of ['pull', 'generate', 'check', 'diff', 'build']) {
    it(`${cmd} --help exits 0 and has examples`, async () => {
      const r = await wastegen(cmd, '--help');
      expect(r.code).toBe(0);
      const text = [...r.out, ...r.err].join('\n');
      expect(text).toContain('Examples:');
      expect(text).toContain(`wastegen ${cmd}`);
    });
  }

  it('--help and --version exit 0', async () => {
    const h = await wastegen('--help');
    expect(h.code).toBe(0);
    expect(h.out.join('\n')).toContain('Examples:');
    const v = await wastegen('--version');
    expect(v.code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'));
    expect(v.out.join('\n').trim()).toBe(pkg.version);
  });
});
