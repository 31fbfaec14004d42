import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { readConfig } from '../../cli/project.js';

/** wastegen.config.json: directories, include/exclude, and its validation (same error style as definitions). */

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

/** A fresh project; definitions of the scenario go to `definitionsDir` (relative to the project). */
function project(scenario: string, definitionsDir = 'definitions'): string {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-'));
  made.push(dir);
  cpSync(join(FIXTURES, scenario, 'definitions'), join(dir, definitionsDir), { recursive: true });
  return dir;
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

const writeConfig = (dir: string, config: unknown, name = 'wastegen.config.json') => {
  mkdirSync(join(dir, name, '..'), { recursive: true });
  writeFileSync(join(dir, name), typeof config === 'string' ? config : JSON.stringify(config, null, 2));
};

describe('wastegen.config.json', () => {
  it('honours definitionsDir and generatedDir', async () => {
    const dir = project('basic-view', 'defs');
    writeConfig(dir, { definitionsDir: 'defs', generatedDir: 'src/gen' });
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'generated'))).toBe(false);
    const expectedDir = join(FIXTURES, 'basic-view/expected');
    expect(files(join(dir, 'src/gen'))).toEqual(files(expectedDir));
    // Same code; only the source paths in banners and routes name the other folder.
    for (const f of files(expectedDir)) {
      const want = readFileSync(join(expectedDir, f), 'utf8').replaceAll('definitions/', 'defs/');
      expect(readFileSync(join(dir, 'src/gen', f), 'utf8'), f).toBe(want);
    }
    expect((await wastegen('check', '--cwd', dir)).code).toBe(0);
    const j = await wastegen('check', '--cwd', dir, '--json');
    expect(JSON.parse(j.out.join('\n'))).toMatchObject({ ok: true, missing: [], stale: [], orphaned: [] });
    // Without the config, the default folders are used (and are empty/missing here).
    expect((await wastegen('check', '--cwd', dir, '--config', 'other.json')).code).toBe(2);
  });

  it('exclude keeps matching definitions out of generate, even invalid ones', async () => {
    const dir = project('basic-view');
    cpSync(join(FIXTURES, 'error-coercion/definitions/views/301-vehicle.json'), join(dir, 'definitions/views/301-vehicle.json'));
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(1);

    writeConfig(dir, { exclude: ['views/102-*', 'views/301-*'] });
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(0);
    expect(files(join(dir, 'generated'))).toEqual(['routes.ts', 'views/101-stock-in/page.tsx', 'views/101-stock-in/schema.ts']);
    for (const f of ['views/101-stock-in/page.tsx', 'views/101-stock-in/schema.ts']) {
      expect(readFileSync(join(dir, 'generated', f), 'utf8'), f).toBe(readFileSync(join(FIXTURES, 'basic-view/expected', f), 'utf8'));
    }
    const routes = readFileSync(join(dir, 'generated/routes.ts'), 'utf8');
    expect(routes).toContain('101-stock-in');
    expect(routes).not.toContain('102-stock-out');
    expect((await wastegen('check', '--cwd', dir)).code).toBe(0);
  });

  it('include limits generate to matching definitions (with ** globs too)', async () => {
    const dir = project('basic-view');
    cpSync(join(FIXTURES, 'screens/definitions/screens'), join(dir, 'definitions/screens'), { recursive: true });
    writeConfig(dir, { include: ['views/102-*.json', '**/4-*'] });
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(0);
    expect(files(join(dir, 'generated'))).toEqual([
      'routes.ts',
      'screens/4-container/page.tsx',
      'views/102-stock-out/page.tsx',
      'views/102-stock-out/schema.ts',
    ]);
  });

  it('--config names another config file, relative to the project', async () => {
    const dir = project('basic-view');
    writeConfig(dir, { exclude: ['views/101-*'], generatedDir: 'out' }, 'ci/wastegen.ci.json');
    const r = await wastegen('generate', '--cwd', dir, '--config', 'ci/wastegen.ci.json');
    expect(r.code).toBe(0);
    expect(files(join(dir, 'out'))).toEqual(['routes.ts', 'views/102-stock-out/page.tsx', 'views/102-stock-out/schema.ts']);
    expect((await wastegen('check', '--cwd', dir, '--config', 'ci/wastegen.ci.json')).code).toBe(0);
  });

  it('--config of a missing file is a usage error (exit 2)', async () => {
    const dir = project('basic-view');
    for (const cmd of ['generate', 'check']) {
      const r = await wastegen(cmd, '--cwd', dir, '--config', 'missing.json');
      expect(r.code, cmd).toBe(2);
      expect(r.err.join('\n')).toContain('missing.json');
    }
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  });

  it('--cwd of a folder that is not there is a usage error (exit 2) and creates nothing', async () => {
    const dir = join(project('basic-view'), 'no-such-folder');
    for (const cmd of ['generate', 'check', 'pull']) {
      const r = await wastegen(cmd, '--cwd', dir);
      expect(r.code, cmd).toBe(2);
      expect(r.err.join('\n')).toContain('no-such-folder: no such folder');
    }
    expect(existsSync(dir)).toBe(false);
  });

  const invalid: { name: string; config: unknown; pointer: string }[] = [
    { name: 'an unknown key', config: { definitionsDir: 'definitions', generatedDirr: 'gen' }, pointer: '/generatedDirr' },
    { name: 'an empty definitionsDir', config: { definitionsDir: '' }, pointer: '/definitionsDir' },
    { name: 'include as a string', config: { include: 'views/*' }, pointer: '/include' },
    { name: 'a number in exclude', config: { exclude: ['views/1-*', 7] }, pointer: '/exclude/1' },
    { name: 'generatedDir not a string', config: { generatedDir: 42 }, pointer: '/generatedDir' },
    { name: 'server not a URL', config: { server: 'not a url' }, pointer: '/server' },
    { name: 'server not http(s)', config: { server: 'ftp://example.com' }, pointer: '/server' },
    { name: 'invalid JSON', config: '{ "include": [', pointer: '' },
    { name: 'not an object', config: '[]', pointer: '' },
  ];

  for (const c of invalid) {
    it(`rejects ${c.name} with E_CONFIG at ${c.pointer || '(root)'}, writing nothing`, async () => {
      const dir = project('basic-view');
      writeConfig(dir, c.config);
      const problems = readConfig(join(dir, 'wastegen.config.json'), dir).problems;
      expect(problems.map((p) => `${p.code} ${p.pointer}`)).toEqual([`E_CONFIG ${c.pointer}`]);

      for (const args of [['generate'], ['check'], ['check', '--json']]) {
        const r = await wastegen(...args, '--cwd', dir);
        expect(r.code, args.join(' ')).toBe(1);
        if (args.includes('--json')) {
          // --json always prints a document, with the config's problems in it.
          const doc = JSON.parse(r.out.join('\n'));
          expect(doc.ok).toBe(false);
          expect(doc.problems.map((p: { code: string; pointer: string }) => `${p.code} ${p.pointer}`)).toEqual([`E_CONFIG ${c.pointer}`]);
          continue;
        }
        // `…wastegen.config.json#/pointer: message`
        const head = `wastegen.config.json#${c.pointer}: `;
        expect(
          r.err.some((l) => l.startsWith(head) && !l.endsWith(head)),
          r.err.join('\n'),
        ).toBe(true);
      }
      expect(existsSync(join(dir, 'generated'))).toBe(false);
    });
  }

  it('prints config problems as project-relative `wastegen.config.json#/pointer: message` lines with a hint', async () => {
    const dir = project('basic-view');
    writeConfig(dir, { include: 'views/*', generatedDirr: 'gen' });
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(1);
    expect(
      r.err.some((l) => /^wastegen\.config\.json#\/include: \S/.test(l)),
      r.err.join('\n'),
    ).toBe(true);
    expect(
      r.err.some((l) => /^wastegen\.config\.json#\/generatedDirr: \S/.test(l)),
      r.err.join('\n'),
    ).toBe(true);
    expect(r.err.some((l) => /^\s*hint: \S/.test(l))).toBe(true);
    const problems = readConfig(join(dir, 'wastegen.config.json'), dir).problems;
    expect(problems.map((p) => `${p.file} ${p.code} ${p.pointer}`).sort()).toEqual([
      'wastegen.config.json E_CONFIG /generatedDirr',
      'wastegen.config.json E_CONFIG /include',
    ]);
  });

  it('names a config given with --config by its project-relative path', async () => {
    const dir = project('basic-view');
    writeConfig(dir, { exclude: 'views/*' }, 'ci/wastegen.ci.json');
    const r = await wastegen('check', '--cwd', dir, '--config', 'ci/wastegen.ci.json');
    expect(r.code).toBe(1);
    expect(
      r.err.some((l) => /^ci\/wastegen\.ci\.json#\/exclude: \S/.test(l)),
      r.err.join('\n'),
    ).toBe(true);
  });
});
