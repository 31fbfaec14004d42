import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCli, DIST, isFresh, ROOT, readStamp } from '../../cli/build.mjs';

const BIN = join(ROOT, 'cli/bin.js');

/** Node flags installing a resolve hook that reports every module of tsx, typescript or esbuild loaded. */
const hook = `export async function resolve(s, c, next) {
  const r = await next(s, c);
  if (/node_modules\\/(tsx|typescript|esbuild)\\//.test(r.url)) process.stderr.write('LOADED ' + r.url + '\\n');
  return r;
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
const WATCH_TOOLING = ['--import', `data:text/javascript,${encodeURIComponent(register)}`];

const runBin = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });

describe('the compiled CLI', () => {
  it('is, after the bin starts, byte for byte what the sources compile to', async () => {
    const r = runBin('--version');
    expect(r.status, r.stderr).toBe(0);
    expect(isFresh()).toBe(true);
    const { files, inputs } = await compileCli();
    for (const [name, bytes] of files) expect(readFileSync(join(DIST, name)).equals(bytes), `cli/dist/${name} drifted`).toBe(true);
    expect(Object.keys(readStamp()?.inputs ?? {}).sort()).toEqual(inputs);
    expect(inputs).toEqual(expect.arrayContaining(['cli/main.ts', 'cli/compile.ts', 'src/model/index.ts']));
  }, 60_000);

  it('is rebuilt by the bin when a source is newer than the build', () => {
    expect(runBin('--version').status).toBe(0);
    const source = join(ROOT, 'cli/errors.ts');
    const before = statSync(source);
    try {
      utimesSync(source, before.atime, new Date(before.mtimeMs + 5000));
      expect(isFresh()).toBe(false);
      const r = runBin('--version');
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('0.1.0');
      expect(isFresh()).toBe(true);
    } finally {
      utimesSync(source, before.atime, before.mtime);
    }
  }, 60_000);

  it('never loads TypeScript tooling at run time', () => {
    expect(runBin('--version').status).toBe(0);
    const r = spawnSync(process.execPath, [...WATCH_TOOLING, BIN, 'check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/LOADED/);
    const main = readFileSync(join(DIST, 'main.js'), 'utf8');
    expect(main).not.toMatch(/from ['"](tsx|typescript|esbuild)/);
  }, 60_000);

  it('the hook above does see tsx when it is loaded', () => {
    const r = spawnSync(process.execPath, [...WATCH_TOOLING, '--import', 'tsx', '-e', '1'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).toMatch(/LOADED .*tsx/);
  }, 60_000);

  it('runs check on the committed definitions', () => {
    const r = runBin('check');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/is up to date/);
  }, 60_000);
});
