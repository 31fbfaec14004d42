import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

  describe('refuses a generatedDir that is not a folder of its own inside the project', () => {
    /**
     * A project inside a folder of its own (`outer/project`), with a git folder, hand-written code and
     * a generated page; `outer/` also holds a neighbour and `elsewhere/` stands outside both. Were a
     * refusal missing, generate would remove what these hold: every one is compared before and after.
     */
    function nested(): { outer: string; dir: string; elsewhere: string } {
      const outer = mkdtempSync(join(tmpdir(), 'wastegen-outer-'));
      made.push(outer);
      const dir = join(outer, 'project');
      cpSync(join(FIXTURES, 'basic-view/definitions'), join(dir, 'definitions'), { recursive: true });
      for (const [rel, text] of Object.entries({
        '.git/HEAD': 'ref: refs/heads/main\n',
        'src/app.ts': 'export const app = 1;\n',
        'wastegen-templates/view-page.hbs': '{{> banner}}\n',
        'generated/routes.ts': '// Generated by wastegen from definitions/. Do not edit; run `wastegen generate`.\n',
      })) {
        mkdirSync(join(dir, rel, '..'), { recursive: true });
        writeFileSync(join(dir, rel), text);
      }
      mkdirSync(join(outer, 'outside'));
      writeFileSync(join(outer, 'outside/keep.ts'), 'export {};\n');
      const elsewhere = mkdtempSync(join(tmpdir(), 'wastegen-elsewhere-'));
      made.push(elsewhere);
      writeFileSync(join(elsewhere, 'keep.ts'), 'export {};\n');
      return { outer, dir, elsewhere };
    }

    /** Bytes of every file under dir (dot files included; links are not followed). */
    const contents = (dir: string) =>
      Object.fromEntries(
        readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => [join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'utf8')]),
      );

    const cases: {
      name: string;
      config: (elsewhere: string) => Record<string, unknown>;
      pointer: string;
      message: RegExp;
      link?: string;
    }[] = [
      { name: 'the project root', config: () => ({ generatedDir: '.' }), pointer: '/generatedDir', message: /is the project root/ },
      {
        name: 'the project root, written as an absolute path',
        config: () => ({ generatedDir: '' }),
        pointer: '/generatedDir',
        message: /is the project root/,
      },
      {
        name: 'a folder that holds the project',
        config: () => ({ generatedDir: '..' }),
        pointer: '/generatedDir',
        message: /holds the project/,
      },
      {
        name: 'a folder beside the project',
        config: () => ({ generatedDir: '../outside' }),
        pointer: '/generatedDir',
        message: /lies outside the project/,
      },
      {
        name: 'an absolute path elsewhere',
        config: (e) => ({ generatedDir: e }),
        pointer: '/generatedDir',
        message: /lies outside the project/,
      },
      {
        name: 'the definitions folder',
        config: () => ({ generatedDir: 'definitions' }),
        pointer: '/generatedDir',
        message: /is also definitionsDir/,
      },
      {
        name: 'a folder inside the definitions',
        config: () => ({ generatedDir: 'definitions/views' }),
        pointer: '/generatedDir',
        message: /lies inside definitionsDir/,
      },
      {
        name: 'a folder that holds the definitions',
        config: () => ({ generatedDir: 'generated', definitionsDir: 'generated/defs' }),
        pointer: '/generatedDir',
        message: /holds definitionsDir/,
      },
      {
        name: 'the default generated/, holding the definitions',
        config: () => ({ definitionsDir: 'generated/defs' }),
        pointer: '/definitionsDir',
        message: /holds definitionsDir/,
      },
      {
        name: 'the templates folder',
        config: () => ({ generatedDir: 'wastegen-templates', templatesDir: 'wastegen-templates' }),
        pointer: '/generatedDir',
        message: /is also templatesDir/,
      },
      { name: 'the git folder', config: () => ({ generatedDir: '.git' }), pointer: '/generatedDir', message: /dot-folder/ },
      {
        name: 'a folder inside a dot-folder',
        config: () => ({ generatedDir: 'src/.gen' }),
        pointer: '/generatedDir',
        message: /dot-folder/,
      },
      {
        name: 'a link to the project root',
        config: () => ({ generatedDir: 'gen-link' }),
        pointer: '/generatedDir',
        message: /a link to .*is the project root/,
        link: '.',
      },
      {
        name: 'a link to a folder outside',
        config: () => ({ generatedDir: 'gen-link' }),
        pointer: '/generatedDir',
        message: /lies outside the project/,
        link: '../outside',
      },
    ];

    for (const c of cases) {
      it(`such as ${c.name}: E_CONFIG at ${c.pointer}, and nothing is written or removed`, async () => {
        const { outer, dir, elsewhere } = nested();
        const config = c.config(elsewhere);
        if (config.generatedDir === '') config.generatedDir = dir;
        writeConfig(dir, config);
        if (c.link) symlinkSync(c.link, join(dir, 'gen-link'));
        const before = [contents(outer), contents(elsewhere)];
        for (const args of [['generate'], ['generate', '--no-cache'], ['check'], ['build', '--no-typecheck']]) {
          const r = await wastegen(...args, '--cwd', dir);
          expect(r.code, args.join(' ')).toBe(1);
          const line = r.err.find((l) => l.startsWith(`wastegen.config.json#${c.pointer}: `));
          expect(line, r.err.join('\n')).toMatch(c.message);
          expect(r.err).toContain('wastegen: wastegen.config.json is invalid: generatedDir must be a folder of its own inside the project');
        }
        for (const args of [
          ['generate', '--json'],
          ['check', '--json'],
        ]) {
          const r = await wastegen(...args, '--cwd', dir);
          expect(r.code, args.join(' ')).toBe(1);
          const doc = JSON.parse(r.out.join('\n'));
          expect(doc.ok).toBe(false);
          expect(doc.problems.map((p: { code: string; pointer: string }) => `${p.code} ${p.pointer}`)).toEqual([`E_CONFIG ${c.pointer}`]);
        }
        expect([contents(outer), contents(elsewhere)]).toEqual(before);
      });
    }

    it('such as a folder that holds the config file given with --config', async () => {
      const { dir } = nested();
      writeConfig(dir, { generatedDir: 'ci' }, 'ci/wastegen.json');
      const r = await wastegen('generate', '--cwd', dir, '--config', 'ci/wastegen.json');
      expect(r.code).toBe(1);
      expect(r.err.some((l) => /^ci\/wastegen\.json#\/generatedDir: .*holds the config file/.test(l))).toBe(true);
      expect(readdirSync(join(dir, 'ci'))).toEqual(['wastegen.json']);
    });

    it('but takes a folder of its own anywhere inside the project, given as an absolute path too', async () => {
      const { dir } = nested();
      writeConfig(dir, { generatedDir: join(dir, 'src/generated') });
      expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
      expect(files(join(dir, 'src/generated'))).toEqual(files(join(FIXTURES, 'basic-view/expected')));
      expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toBe('export const app = 1;\n');
    });
  });

  describe('a definitionsDir that is not there', () => {
    it('is an error naming the folder and the setting, and generated/ is left as it was', async () => {
      const dir = project('basic-view');
      expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
      const before = Object.fromEntries(files(join(dir, 'generated')).map((f) => [f, readFileSync(join(dir, 'generated', f), 'utf8')]));
      writeConfig(dir, { definitionsDir: 'definitons' });
      for (const args of [['generate'], ['check'], ['build', '--no-typecheck'], ['diff', '--server', 'http://127.0.0.1:9']]) {
        const r = await wastegen(...args, '--cwd', dir);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.err, args.join(' ')).toContain('wastegen.config.json#/definitionsDir: the definitions folder definitons/ does not exist');
        expect(r.err.join('\n')).toMatch(/hint: correct definitionsDir in wastegen\.config\.json/);
      }
      const j = await wastegen('generate', '--cwd', dir, '--json');
      expect(j.code).toBe(1);
      expect(JSON.parse(j.out.join('\n')).problems).toMatchObject([
        { code: 'E_CONFIG', file: 'wastegen.config.json', pointer: '/definitionsDir' },
      ]);
      expect(Object.fromEntries(files(join(dir, 'generated')).map((f) => [f, readFileSync(join(dir, 'generated', f), 'utf8')]))).toEqual(
        before,
      );
    });
  });

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
