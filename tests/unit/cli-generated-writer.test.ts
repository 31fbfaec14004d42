import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../cli/build.mjs';
import { stampOf } from '../../cli/definitions-dir.js';
import { listFiles, StagedWrites } from '../../cli/generated-dir.js';
import { packFiles, unpackFiles } from '../../cli/generated-writer.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('wastegen-writer-');

/** The stat of every file generate owns under dir, as the cache records it. */
function stampsOf(dir: string): Record<string, string> {
  return Object.fromEntries(
    listFiles(dir)
      .filter((f) => f !== '.gitkeep')
      .map((f) => [f, stampOf(statSync(join(dir, f)))]),
  );
}

/** Every entry under dir, dot files included, folders ending in /. */
function entries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => `${join(e.parentPath, e.name).slice(dir.length + 1)}${e.isDirectory() ? '/' : ''}`)
    .sort();
}

describe('StagedWrites into a folder that does not exist yet', () => {
  it('shows nothing before commit, then the whole folder at once, with no stage folder left', () => {
    const root = tempDir();
    const dir = join(root, 'generated');
    const writes = new StagedWrites(dir);
    writes.add('views/1-a/page.tsx', 'page a');
    writes.add('views/1-a/schema.ts', 'schema a');
    writes.add('routes.ts', 'routes');
    expect(existsSync(dir)).toBe(false);
    const result = writes.commit();
    expect(result).toEqual({
      missing: ['routes.ts', 'views/1-a/page.tsx', 'views/1-a/schema.ts'],
      stale: [],
      orphaned: [],
      unchanged: [],
      // The stats taken as each file was staged are those after the stage folder became generated/.
      outputs: { stamps: stampsOf(dir), created: true },
    });
    expect(Object.keys(result.outputs?.stamps ?? {})).toHaveLength(3);
    expect(readFileSync(join(dir, 'views/1-a/page.tsx'), 'utf8')).toBe('page a');
    expect(entries(root)).toEqual([
      'generated/',
      'generated/routes.ts',
      'generated/views/',
      'generated/views/1-a/',
      'generated/views/1-a/page.tsx',
      'generated/views/1-a/schema.ts',
    ]);
  });

  it('leaves nothing behind on abort', () => {
    const root = tempDir();
    const writes = new StagedWrites(join(root, 'generated'));
    writes.add('views/1-a/page.tsx', 'page a');
    writes.abort();
    expect(entries(root)).toEqual([]);
  });

  it('removes the stage folder a killed run left, and keeps one of a running process', () => {
    const root = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    mkdirSync(join(root, `.wastegen-tmp-${dead}-x/views`), { recursive: true });
    mkdirSync(join(root, `.wastegen-tmp-${process.ppid}-y`));
    new StagedWrites(join(root, 'generated')).abort();
    expect(entries(root)).toEqual([`.wastegen-tmp-${process.ppid}-y/`]);
  });

  it('refuses a file emitted twice', () => {
    const writes = new StagedWrites(join(tempDir(), 'generated'));
    writes.add('a.ts', 'one');
    expect(() => writes.add('a.ts', 'two')).toThrow(/emitted twice/);
    writes.abort();
  });
});

describe('files sent to the writing thread as bytes', () => {
  it('packs texts into one transferable buffer and unpacks the UTF-8 bytes writeFileSync would write', () => {
    const files: [string, string][] = [
      ['a.ts', "export const a = '中文标签';\n"],
      ['empty.ts', ''],
      ['astral.ts', '𠮷 and a lone half \ud800 and U+2028 \u2028'],
      ['b/c.ts', 'x'.repeat(100_000)],
    ];
    const [batch, transfer] = packFiles(files);
    expect(transfer).toEqual([batch.bytes.buffer]);
    expect(batch.bytes.byteOffset).toBe(0);
    expect(batch.bytes.buffer.byteLength).toBe(batch.bytes.byteLength);
    const out = [...unpackFiles(batch)];
    expect(out.map(([p]) => p)).toEqual(files.map(([p]) => p));
    for (const [i, [, bytes]] of out.entries()) expect(Buffer.from(bytes).equals(Buffer.from(files[i]?.[1] ?? ''))).toBe(true);
  });

  it('writes the bytes, and compares them with what is on disk', () => {
    const dir = join(tempDir(), 'generated');
    mkdirSync(dir);
    writeFileSync(join(dir, 'same.ts'), '相同');
    writeFileSync(join(dir, 'other.ts'), '旧');
    const writes = new StagedWrites(dir);
    for (const [path, bytes] of unpackFiles(
      packFiles([
        ['same.ts', '相同'],
        ['other.ts', '新'],
      ])[0],
    ))
      writes.add(path, bytes);
    const result = writes.commit();
    expect(result).toMatchObject({ unchanged: ['same.ts'], stale: ['other.ts'] });
    expect(readFileSync(join(dir, 'other.ts'), 'utf8')).toBe('新');
  });
});

describe('StagedWrites into an existing folder', () => {
  function existing(): string {
    const dir = join(tempDir(), 'generated');
    mkdirSync(join(dir, 'views/1-a'), { recursive: true });
    mkdirSync(join(dir, 'views/2-gone'), { recursive: true });
    writeFileSync(join(dir, 'views/1-a/page.tsx'), 'page a');
    writeFileSync(join(dir, 'views/1-a/schema.ts'), 'old schema');
    writeFileSync(join(dir, 'views/2-gone/page.tsx'), 'gone');
    writeFileSync(join(dir, '.gitkeep'), '');
    const old = new Date(Date.now() - 60_000);
    for (const f of listFiles(dir)) utimesSync(join(dir, f), old, old);
    return dir;
  }

  it('writes only what changed, at commit, and removes orphans and the folders they empty', () => {
    const dir = existing();
    const before = statSync(join(dir, 'views/1-a/page.tsx')).mtimeMs;
    const writes = new StagedWrites(dir);
    writes.add('views/1-a/page.tsx', 'page a');
    writes.add('views/1-a/schema.ts', 'new schema');
    writes.add('views/3-new/page.tsx', 'new page');
    expect(readFileSync(join(dir, 'views/1-a/schema.ts'), 'utf8')).toBe('old schema');
    expect(existsSync(join(dir, 'views/3-new/page.tsx'))).toBe(false);
    const result = writes.commit();
    expect(result).toEqual({
      missing: ['views/3-new/page.tsx'],
      stale: ['views/1-a/schema.ts'],
      orphaned: ['views/2-gone/page.tsx'],
      unchanged: ['views/1-a/page.tsx'],
      // Unchanged, replaced and new files, with their stats after the renames; .gitkeep is not generate's.
      outputs: { stamps: stampsOf(dir), created: false },
    });
    expect(Object.keys(result.outputs?.stamps ?? {})).toHaveLength(3);
    expect(statSync(join(dir, 'views/1-a/page.tsx')).mtimeMs).toBe(before);
    expect(readFileSync(join(dir, 'views/1-a/schema.ts'), 'utf8')).toBe('new schema');
    expect(entries(dir)).toEqual([
      '.gitkeep',
      'views/',
      'views/1-a/',
      'views/1-a/page.tsx',
      'views/1-a/schema.ts',
      'views/3-new/',
      'views/3-new/page.tsx',
    ]);
  });

  it('leaves the folder byte for byte as it was on abort, folders it made included', () => {
    const dir = existing();
    const before = entries(dir);
    const writes = new StagedWrites(dir);
    writes.add('views/1-a/schema.ts', 'new schema');
    writes.add('views/3-new/deep/page.tsx', 'new page');
    writes.abort();
    expect(entries(dir)).toEqual(before);
    expect(readFileSync(join(dir, 'views/1-a/schema.ts'), 'utf8')).toBe('old schema');
  });
});

describe('the compiled CLI writing on its own thread', () => {
  const BIN = join(ROOT, 'cli/bin.js');
  const project = () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'tests/fixtures/basic-view/definitions'), join(dir, 'definitions'), { recursive: true });
    return dir;
  };

  it('writes the same files as the in-process run, and nothing else beside them', () => {
    const dir = project();
    const r = spawnSync(process.execPath, [BIN, 'generate', '--cwd', dir, '--json'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.added.length).toBeGreaterThan(2);
    expect(doc.added.map((f: string) => f.replace(/^generated\//, ''))).toEqual(listFiles(join(dir, 'generated')));
    expect(readdirSync(dir).sort()).toEqual(['definitions', 'generated', 'node_modules']);
  }, 60_000);

  it('writes nothing, and leaves no stage folder, when a definition after valid ones is invalid', () => {
    const dir = project();
    cpSync(join(ROOT, 'tests/fixtures/screens/definitions'), join(dir, 'definitions'), { recursive: true });
    const valid = spawnSync(process.execPath, [BIN, 'generate', '--cwd', dir, '--quiet'], { encoding: 'utf8' });
    expect(valid.status, valid.stderr).toBe(0);
    rmSync(join(dir, 'generated'), { recursive: true });
    // Sorted after the valid ones, so their pages are already emitted when its problem is found.
    cpSync(join(ROOT, 'tests/fixtures/error-semantics/definitions'), join(dir, 'definitions'), { recursive: true });
    const r = spawnSync(process.execPath, [BIN, 'generate', '--cwd', dir], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/nothing was written/);
    expect(readdirSync(dir).sort()).toEqual(['definitions', 'node_modules']);
  }, 60_000);

  it('reports a file it cannot write, exits non-zero, and leaves generated/ as it was', () => {
    const dir = project();
    expect(spawnSync(process.execPath, [BIN, 'generate', '--cwd', dir, '--quiet'], { encoding: 'utf8' }).status).toBe(0);
    const generated = join(dir, 'generated');
    const views = readdirSync(join(generated, 'views'));
    const first = views[0] as string;
    // A file where the page's folder must be: staging the page there fails.
    rmSync(join(generated, 'views', first), { recursive: true });
    writeFileSync(join(generated, 'views', first), 'in the way');
    const routes = join(generated, 'routes.ts');
    writeFileSync(routes, '// hand-edited\n');
    const before = entries(generated);
    const r = spawnSync(process.execPath, [BIN, 'generate', '--cwd', dir, '--no-cache'], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/ENOTDIR|not a directory/i);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(entries(generated)).toEqual(before);
    expect(readFileSync(routes, 'utf8')).toBe('// hand-edited\n');
  }, 60_000);
});
