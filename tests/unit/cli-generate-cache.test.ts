import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DefinitionListing, DefinitionOnDisk, listDefinitionFiles } from '../../cli/definitions-dir.js';
import { FINE_SETTLED_MS, isUpToDate, recordGenerate, SETTLED_MS, sha } from '../../cli/generate-cache.js';
import { main } from '../../cli/main.js';
import { loadProject } from '../../cli/project.js';

/**
 * The shortcut of a no-op `wastegen generate`: a definition whose stat is the one recorded, and had
 * settled when it was read, is not read again. Any rewrite moves the file's ctime, so it is read
 * and hashed; a file changed within SETTLED_MS of being read is hashed on every run. The clock is
 * moved forward by giving the check a listing taken "later", never by waiting.
 */

const FIXTURES = join(import.meta.dirname, '../fixtures');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-cache-'));
  made.push(dir);
  cpSync(join(FIXTURES, 'basic-view', 'definitions'), join(dir, 'definitions'), { recursive: true });
  // Whole seconds, so that a test can put an mtime back exactly.
  const past = new Date('2020-01-01T00:00:00Z');
  for (const f of readdirSync(join(dir, 'definitions'), { recursive: true }) as string[])
    if (f.endsWith('.json')) utimesSync(join(dir, 'definitions', f), past, past);
  return dir;
}

async function generate(dir: string): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'wastegen', 'generate', '--cwd', dir], { out: (l) => out.push(l), err: (l) => err.push(l) });
  expect(code, [...out, ...err].join('\n')).toBe(0);
  return out.join('\n');
}

const upToDate = /is up to date/;
const cacheRecord = (dir: string) => {
  const folder = join(dir, 'node_modules/.cache/wastegen');
  return JSON.parse(readFileSync(join(folder, readdirSync(folder).find((f) => f.endsWith('.json')) as string), 'utf8'));
};

/** The listing as a run this much later would take it (same stats, a later clock). */
const later = (dir: string, ms = 2 * SETTLED_MS): DefinitionListing => {
  const listing = listDefinitionFiles(loadProject({ cwd: dir }));
  return { ...listing, at: listing.at + ms };
};

/** Same length, other bytes: a size check alone cannot see it. */
function rewriteSameSize(file: string): void {
  const text = readFileSync(file, 'utf8');
  const st = statSync(file);
  const changed = text.replace('"operationWidth": 260', '"operationWidth": 261');
  expect(changed).not.toBe(text);
  expect(changed.length).toBe(text.length);
  writeFileSync(file, changed);
  // mtime put back as it was: only the ctime (and the bytes) tell.
  utimesSync(file, st.atime, st.mtime);
  expect(statSync(file).mtimeMs).toBe(st.mtimeMs);
}

describe('the generate cache', () => {
  it('records no stat for a definition read right after it was written, so it is hashed next time', async () => {
    const dir = project();
    await generate(dir);
    const record = cacheRecord(dir);
    expect(Object.keys(record.inputs).length).toBeGreaterThan(0);
    for (const input of Object.values(record.inputs) as { hash: string; stamp?: unknown }[]) {
      expect(input.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(input.stamp).toBeUndefined();
    }
    expect(await generate(dir)).toMatch(upToDate);
  });

  it('trusts a stat once the file has settled, and records it', async () => {
    const dir = project();
    await generate(dir);
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    for (const input of Object.values(cacheRecord(dir).inputs) as { stamp?: string }[])
      expect(input.stamp).toMatch(/^\d+:[\d.]+:[\d.]+:\d+$/);
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    expect(await generate(dir)).toMatch(upToDate);
  });

  it('sees a same-size rewrite with its old mtime of a definition whose stat was trusted', async () => {
    const dir = project();
    await generate(dir);
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    rewriteSameSize(join(dir, 'definitions/views/101-stock-in.json'));
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(false);
    const out = await generate(dir);
    expect(out).not.toMatch(upToDate);
    expect(out).toMatch(/\d+ updated/);
  });

  it('sees a same-size rewrite with its old mtime right after the generate (stat not settled)', async () => {
    const dir = project();
    await generate(dir);
    rewriteSameSize(join(dir, 'definitions/views/101-stock-in.json'));
    expect(await generate(dir)).not.toMatch(upToDate);
    expect(await generate(dir)).toMatch(upToDate);
  });

  it('sees a definition added or removed', async () => {
    const dir = project();
    await generate(dir);
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    const file = join(dir, 'definitions/views/101-stock-in.json');
    const text = readFileSync(file, 'utf8');
    rmSync(file);
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(false);
    expect(await generate(dir)).toMatch(/removed/);
    writeFileSync(file, text);
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(false);
    expect(await generate(dir)).toMatch(/added/);
  });

  it('sees a same-size edit with its old mtime of a generated file', async () => {
    const dir = project();
    await generate(dir);
    const page = join(dir, 'generated/views/101-stock-in/page.tsx');
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(page, past, past);
    expect(await generate(dir)).toMatch(/0 updated/);
    expect(await generate(dir)).toMatch(upToDate);
    const text = readFileSync(page, 'utf8');
    const size = statSync(page).size;
    writeFileSync(page, text.replace(/.$/s, text.endsWith(' ') ? '\n' : ' '));
    utimesSync(page, past, past);
    expect(statSync(page).size).toBe(size);
    expect(statSync(page).mtimeMs).toBe(past.getTime());
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(false);
    expect(await generate(dir)).toMatch(/1 updated/);
    expect(readFileSync(page, 'utf8')).toBe(text);
  });

  it("trusts a settled folder's stat instead of listing it, and records it", async () => {
    const dir = project();
    await generate(dir);
    // Right after the generate its folders have not settled: none is trusted yet.
    expect(Object.keys(cacheRecord(dir).folders ?? {})).toEqual([]);
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    const folders = Object.keys(cacheRecord(dir).folders).sort();
    expect(folders).toContain('');
    expect(folders).toContain('views');
    expect(folders).toContain('views/101-stock-in');
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    expect(await generate(dir)).toMatch(upToDate);
  });

  it('trusts a folder sooner where the file system keeps times finer than a second', async () => {
    const dir = project();
    await generate(dir);
    const fine = statSync(join(dir, 'generated/views')).ctimeMs % 1000 !== 0;
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir, FINE_SETTLED_MS * 2))).toBe(true);
    // Within SETTLED_MS only a file system with times finer than a second lets the folders be trusted.
    expect(cacheRecord(dir).folders.views !== undefined).toBe(fine);
  });

  it('sees a file added to or removed from a trusted folder, even with its mtime put back', async () => {
    const dir = project();
    await generate(dir);
    const folder = join(dir, 'generated/views/101-stock-in');
    // Whole seconds, so that the mtime can be put back exactly.
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(folder, past, past);
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    expect(cacheRecord(dir).folders['views/101-stock-in']).toBeDefined();
    // As generate writes its files: its banner first (a file without is not generate's to remove).
    writeFileSync(join(folder, 'extra.ts'), '// Generated by wastegen from definitions/views/101-stock-in.json.\nexport {};\n');
    utimesSync(folder, past, past);
    expect(statSync(folder).mtimeMs).toBe(past.getTime());
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(false);
    expect(await generate(dir)).toMatch(/1 removed/);
    expect(readdirSync(folder)).not.toContain('extra.ts');

    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    rmSync(join(folder, 'schema.ts'));
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(false);
    expect(await generate(dir)).toMatch(/1 added/);
  });

  it('takes an empty folder for nothing, and a new folder with a file in it for a change', async () => {
    const dir = project();
    await generate(dir);
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    mkdirSync(join(dir, 'generated/views/empty'));
    writeFileSync(join(dir, 'generated/.gitkeep'), '');
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(true);
    writeFileSync(join(dir, 'generated/views/empty/page.tsx'), 'export {};\n');
    expect(isUpToDate(loadProject({ cwd: dir }), later(dir))).toBe(false);
  });
});

describe('definitions read when the compile asks for them', () => {
  it('are read afresh each time, and the cache records the hash of the text the compile read', async () => {
    const dir = project();
    await generate(dir);
    const proj = loadProject({ cwd: dir });
    const listing = listDefinitionFiles(proj);
    const sources = listing.files.map((f) => new DefinitionOnDisk(f, sha));
    const first = sources[0] as DefinitionOnDisk;
    expect(first.hash).toBeUndefined();
    // What a compile does: each text read once.
    const compiled = sources.map((s) => s.text);
    expect(first.hash).toBe(sha(compiled[0] as string));
    // The file changes after the compile read it: the record keeps the hash of what was compiled, not
    // of what is on disk now, so the next run sees the change and compiles again.
    const abs = (listing.files[0] as { abs: string }).abs;
    writeFileSync(abs, (compiled[0] as string).replace('"operationWidth": 260', '"operationWidth": 270'));
    recordGenerate(proj, listing, sources);
    expect(cacheRecord(dir).inputs[first.file].hash).toBe(sha(compiled[0] as string));
    expect(isUpToDate(proj, later(dir))).toBe(false);
    // Asked again, the text is read again: the new one, with its hash.
    expect(first.text).toBe(readFileSync(abs, 'utf8'));
    expect(first.hash).toBe(sha(readFileSync(abs, 'utf8')));
  });
});
