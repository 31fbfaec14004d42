import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../cli/build.mjs';
import type { GenerateFlags } from '../../cli/commands/generate.js';
import { upToDate } from '../../cli/generate-fast.js';
import { buildProgram, main, plainGenerateFlags } from '../../cli/main.js';

/**
 * What a run loads before it does anything: `wastegen generate` with its plain flags is read
 * without commander, into exactly the flags commander would give, and a run with nothing to compile
 * loads neither commander, zod, the compiler nor the writing thread.
 */

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The flags commander gives the generate action for these arguments. */
async function commanderFlags(args: string[]): Promise<GenerateFlags> {
  const ctx = { output: { out() {}, err() {} }, setExit() {} };
  const argv = ['node', 'wastegen', ...args];
  const program = await buildProgram(ctx, argv);
  let got: GenerateFlags | undefined;
  program.commands
    .find((c) => c.name() === 'generate')
    ?.action((flags: GenerateFlags) => {
      got = { ...flags };
    });
  await program.parseAsync(argv);
  if (!got) throw new Error('the generate action did not run');
  return got;
}

/** Flags as runGenerate reads them: commander also sets cache: true when --no-cache is absent. */
const meaning = (f: GenerateFlags) => ({
  cwd: f.cwd,
  config: f.config,
  quiet: f.quiet === true,
  json: f.json === true,
  cache: f.cache !== false,
});

describe('the plain generate flags', () => {
  const plain = [
    [],
    ['--cwd', 'a b'],
    ['--cwd=../x'],
    ['--config', 'ci/w.json', '--cwd', 'p'],
    ['--config=c.json'],
    ['--quiet'],
    ['--json', '--no-cache'],
    ['--no-cache', '--quiet', '--cwd', 'p', '--json', '--config', 'c'],
    ['--cwd='],
  ];
  for (const args of plain) {
    it(`generate ${args.join(' ')}: what commander gives`, async () => {
      const flags = plainGenerateFlags(['node', 'wastegen', 'generate', ...args]);
      expect(flags).toBeDefined();
      expect(meaning(flags as GenerateFlags)).toEqual(meaning(await commanderFlags(['generate', ...args])));
    });
  }

  it('leaves everything else to commander', () => {
    for (const args of [
      ['check'],
      ['--help'],
      ['generate', '--help'],
      ['generate', '-h'],
      ['generate', 'extra'],
      ['generate', '--cwd'],
      ['generate', '--cwd', '--quiet'],
      ['generate', '--cwd', 'a', '--cwd', 'b'],
      ['generate', '--quiet=yes'],
      ['generate', '--cache'],
      ['generate', '--frobnicate'],
      ['generate', '--'],
      ['--cwd', 'x', 'generate'],
    ])
      expect(plainGenerateFlags(['node', 'wastegen', ...args]), args.join(' ')).toBeUndefined();
  });
});

/** Node flags installing a resolve hook that reports every package module and chunk loaded. */
const hook = `export async function resolve(s, c, next) {
  const r = await next(s, c);
  if (!r.url.startsWith('node:')) process.stderr.write('LOADED ' + r.url + '\\n');
  return r;
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
const WATCH = ['--import', `data:text/javascript,${encodeURIComponent(register)}`];

describe('a generate with nothing to do', () => {
  it('loads neither commander, zod, handlebars, the compiler nor the writing thread', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wastegen-startup-'));
    made.push(dir);
    cpSync(join(ROOT, 'tests/fixtures/basic-view/definitions'), join(dir, 'definitions'), { recursive: true });
    const bin = join(ROOT, 'cli/bin.js');
    expect(spawnSync(process.execPath, [bin, 'generate', '--cwd', dir], { encoding: 'utf8' }).status).toBe(0);
    const r = spawnSync(process.execPath, [...WATCH, bin, 'generate', '--cwd', dir], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/is up to date/);
    const loaded = r.stderr.split('\n').filter((l) => l.startsWith('LOADED '));
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((l) => /node_modules\//.test(l))).toEqual([]);
    expect(loaded.some((l) => /write-worker/.test(l))).toBe(false);
    // Answered by the bin's CommonJS file: no ES module of the compiled CLI is loaded at all.
    expect(loaded.filter((l) => /cli\/dist\//.test(l))).toEqual([]);
  }, 60_000);

  it('leaves to the full command what its first try cannot answer: a change, --no-cache, a broken config', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wastegen-startup-'));
    made.push(dir);
    cpSync(join(ROOT, 'tests/fixtures/basic-view/definitions'), join(dir, 'definitions'), { recursive: true });
    const bin = join(ROOT, 'cli/bin.js');
    const run = (...args: string[]) => spawnSync(process.execPath, [bin, 'generate', '--cwd', dir, ...args], { encoding: 'utf8' });
    expect(run().status).toBe(0);
    expect(run('--json').stdout).toMatch(/"upToDate": true/);
    const page = join(dir, 'generated/views/101-stock-in/page.tsx');
    const text = readFileSync(page, 'utf8');
    writeFileSync(page, `${text}// edited\n`);
    const restored = run();
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/1 updated/);
    expect(readFileSync(page, 'utf8')).toBe(text);
    expect(run('--no-cache').stdout).toMatch(/unchanged/);
    writeFileSync(join(dir, 'wastegen.config.json'), '{ "generatedDir": 3 }');
    const broken = run();
    expect(broken.status).not.toBe(0);
    expect(broken.stderr).toMatch(/wastegen\.config\.json/);
  }, 60_000);
});

/** A project of the basic-view fixture (and `more` files), and what the bin's first try hands over for a generate of it. */
function handedOver(more: Record<string, string> = {}, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-startup-'));
  made.push(dir);
  cpSync(join(ROOT, 'tests/fixtures/basic-view/definitions'), join(dir, 'definitions'), { recursive: true });
  for (const [rel, text] of Object.entries(more)) writeFileSync(join(dir, 'definitions', rel), text);
  const argv = ['node', 'wastegen', 'generate', '--cwd', dir, ...args];
  const handoff = upToDate(argv);
  if (!handoff || handoff === true) throw new Error('a generate with no output yet has work to do');
  return { dir, argv, handoff };
}

describe('a generate with work to do', () => {
  it('compiles what its first try listed, and only for the arguments it listed them for', async () => {
    const second = readFileSync(join(ROOT, 'tests/fixtures/basic-view/definitions/views/101-stock-in.json'), 'utf8')
      .replace('"id": 101', '"id": 190')
      .replace('"componentName": "stockIn"', '"componentName": "stockInSecond"');
    const { dir, argv, handoff } = handedOver({ 'views/190-second.json': second }, '--quiet');
    expect(handoff.start.listing.files.map((f) => f.rel)).toContain('views/190-second.json');
    // The listing handed over is what is compiled: a file left out of it is not, though it is on disk.
    handoff.start.listing.files = handoff.start.listing.files.filter((f) => f.rel !== 'views/190-second.json');
    const silent = { out() {}, err() {} };
    expect(await main(argv, silent, handoff)).toBe(0);
    expect(existsSync(join(dir, 'generated/views/101-stock-in/page.tsx'))).toBe(true);
    expect(existsSync(join(dir, 'generated/views/190-second'))).toBe(false);
    // Handed to a run of other arguments, it is not used: that run lists the disk.
    expect(await main([...argv.slice(0, -1), '--no-cache'], silent, handoff)).toBe(0);
    expect(existsSync(join(dir, 'generated/views/190-second/page.tsx'))).toBe(true);
    // Nothing to do: answered at once, nothing handed over.
    expect(upToDate(argv)).toBe(true);
  }, 60_000);
});

describe('a definition that goes away during a generate', () => {
  it('is named in a clear error, and generated/ is left as it was', async () => {
    const { dir, argv, handoff } = handedOver();
    // Listed, then removed before the compile reads it.
    rmSync(join(dir, 'definitions/views/101-stock-in.json'));
    const err: string[] = [];
    expect(await main(argv, { out() {}, err: (l) => err.push(l) }, handoff)).toBe(1);
    expect(err.join('\n')).toMatch(/cannot read definitions\/views\/101-stock-in\.json: ENOENT/);
    // Nothing written, and nothing staged left behind.
    expect(readdirSync(dir)).toEqual(['definitions']);
  }, 60_000);
});
