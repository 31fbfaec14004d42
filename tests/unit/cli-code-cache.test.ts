import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCli, DIST, ROOT, readStamp } from '../../cli/build.mjs';
import { codeCacheFile, loadWithCodeCache } from '../../cli/code-cache.js';

/**
 * A generate with work to do runs from cli/dist/generate-main.cjs, loaded with V8's code cache of its
 * build. The cache is only ever a saving: one that is missing, damaged, of another build or of other
 * V8 flags gives the same run, and is then written anew.
 */

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** A CommonJS file whose answer depends on code run at load and in a function called later. */
function moduleFile(): string {
  const file = join(tempDir('wastegen-code-cache-'), 'm.cjs');
  writeFileSync(
    file,
    `const base = [1, 2, 3].map((x) => x * 2);
exports.total = (n) => base.reduce((a, b) => a + b, 0) + n + require('node:path').basename(__filename).length;`,
  );
  return file;
}

type M = { total(n: number): number };

describe('loading with the code cache', () => {
  it('writes the cache after a load that had none, then uses it', () => {
    const file = moduleFile();
    const first = loadWithCodeCache<M>(file, 'a'.repeat(64));
    expect(first.state).toBe('absent');
    expect(first.exports.total(1)).toBe(12 + 1 + 'm.cjs'.length);
    expect(first.save()).toBe(true);
    expect(existsSync(codeCacheFile(file, 'a'.repeat(64)))).toBe(true);
    const second = loadWithCodeCache<M>(file, 'a'.repeat(64));
    expect(second.state).toBe('used');
    expect(second.exports.total(1)).toBe(first.exports.total(1));
    // Nothing to write after a load that used it.
    expect(second.save()).toBe(false);
  });

  it('never gives one build the cache of another', () => {
    const file = moduleFile();
    const a = loadWithCodeCache<M>(file, 'a'.repeat(64));
    a.save();
    expect(loadWithCodeCache<M>(file, 'b'.repeat(64)).state).toBe('absent');
  });

  it('runs the file as it is when the cache is damaged, and writes it anew', () => {
    const file = moduleFile();
    const hash = 'c'.repeat(64);
    writeFileSync(codeCacheFile(file, hash), Buffer.from('not a code cache at all, only some bytes'));
    const damaged = loadWithCodeCache<M>(file, hash);
    expect(damaged.state).toBe('rejected');
    expect(damaged.exports.total(2)).toBe(12 + 2 + 'm.cjs'.length);
    expect(damaged.save()).toBe(true);
    expect(loadWithCodeCache<M>(file, hash).state).toBe('used');
  });

  it('runs the file when the cache can be neither read nor written, and leaves nothing behind', () => {
    const file = moduleFile();
    const hash = 'd'.repeat(64);
    // A folder where the cache file should be.
    mkdirSync(codeCacheFile(file, hash));
    const loaded = loadWithCodeCache<M>(file, hash);
    expect(loaded.state).toBe('absent');
    expect(loaded.exports.total(0)).toBe(12 + 'm.cjs'.length);
    expect(loaded.save()).toBe(false);
    expect(readdirSync(dirname(file)).sort()).toEqual(['m.cjs', basename(codeCacheFile(file, hash))].sort());
  });
});

describe('a generate of the compiled CLI', () => {
  const bin = join(ROOT, 'cli/bin.js');

  it('gives the same files with and without the cache, and with a damaged one', () => {
    expect(spawnSync(process.execPath, [bin, '--version']).status).toBe(0);
    const hash = readStamp()?.hash as string;
    const cache = codeCacheFile(join(DIST, 'generate-main.cjs'), hash);
    const outputs: string[] = [];
    for (const before of ['none', 'written', 'damaged'] as const) {
      if (before === 'none') rmSync(cache, { force: true });
      if (before === 'damaged') writeFileSync(cache, readFileSync(cache).subarray(0, 100));
      const dir = tempDir('wastegen-code-cache-project-');
      cpSync(join(ROOT, 'tests/fixtures/basic-view/definitions'), join(dir, 'definitions'), { recursive: true });
      const r = spawnSync(process.execPath, [bin, 'generate', '--cwd', dir], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/generated 2 pages into generated\/: 5 added/);
      expect(existsSync(cache), `after a run with the cache ${before}`).toBe(true);
      outputs.push(readFileSync(join(dir, 'generated/views/101-stock-in/page.tsx'), 'utf8'));
    }
    expect(new Set(outputs).size).toBe(1);
    expect(loadWithCodeCache(join(DIST, 'generate-main.cjs'), hash).state).toBe('used');
  }, 60_000);

  it('reports an invalid definition from the cached file as from the full CLI', () => {
    const dir = tempDir('wastegen-code-cache-project-');
    cpSync(join(ROOT, 'tests/fixtures/basic-view/definitions'), join(dir, 'definitions'), { recursive: true });
    writeFileSync(join(dir, 'definitions/views/102-broken.json'), '{ "id": 102, ');
    const r = spawnSync(process.execPath, [bin, 'generate', '--cwd', dir], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/definitions\/views\/102-broken\.json#: /);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(readdirSync(dir)).toEqual(['definitions']);
  }, 60_000);

  it('a rebuild keeps the cache of its own build and removes those of others', async () => {
    const dist = tempDir('wastegen-code-cache-dist-');
    const { hash } = await buildCli(dist);
    const own = codeCacheFile(join(dist, 'generate-main.cjs'), hash);
    const other = codeCacheFile(join(dist, 'generate-main.cjs'), 'e'.repeat(64));
    writeFileSync(own, 'x');
    writeFileSync(other, 'x');
    await buildCli(dist);
    expect(existsSync(own)).toBe(true);
    expect(existsSync(other)).toBe(false);
  }, 60_000);
});
