import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticProject } from '../../bench/lib/synthetic-definitions.js';
import { ROOT } from '../../cli/build.mjs';
import { compile } from '../../cli/compile.js';
import { THREADED_FROM } from '../../cli/compile-threads.js';
import { readDefinitionFiles } from '../../cli/definitions-dir.js';
import { loadProject } from '../../cli/project.js';
import { formatProblem, sortProblems } from '../../src/model/index.js';

/**
 * The compiled CLI compiles a generate of many definitions on two threads. What it writes and what
 * it reports must be exactly what compile() on one thread gives: the same files, byte for byte, and
 * the same problems, with nothing written when one definition is wrong.
 */

const BIN = join(ROOT, 'cli/bin.js');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Node flags installing a resolve hook that names every module loaded, on every thread. */
const hook = `export async function resolve(s, c, next) {
  const r = await next(s, c);
  if (!r.url.startsWith('node:')) process.stderr.write('LOADED ' + r.url + '\\n');
  return r;
}`;
const WATCH = [
  '--import',
  `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`)}`,
];

/** Many synthetic views, the golden fixtures' screens and views, and an undesigned view. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-threads-'));
  made.push(dir);
  writeSyntheticProject(dir, THREADED_FROM + 30);
  for (const s of ['screens', 'basic-view', 'loose-undesigned'])
    cpSync(join(ROOT, 'tests/fixtures', s, 'definitions'), join(dir, 'definitions'), { recursive: true });
  return dir;
}

/** The CLI, made to compile on two threads whatever the machine's load (or on one). */
const run = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, WASTEGEN_COMPILE_THREADS: '2' } });
const runOneThread = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, WASTEGEN_COMPILE_THREADS: '1' } });

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

/** What compile() gives on one thread, in this process. */
function oneThread(dir: string) {
  const project = loadProject({ cwd: dir });
  return compile(readDefinitionFiles(project), 'definitions/', { showPath: (p) => project.rel(p) });
}

describe('a generate compiled on two threads', () => {
  it('writes exactly what compile() gives on one thread', () => {
    const dir = project();
    const r = spawnSync(process.execPath, [...WATCH, BIN, 'generate', '--cwd', dir, '--quiet'], {
      encoding: 'utf8',
      env: { ...process.env, WASTEGEN_COMPILE_THREADS: '2' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/LOADED .*\/cli\/dist\/compile-worker\.js/);
    const expected = oneThread(dir);
    expect(expected.files.size).toBeGreaterThan(2 * THREADED_FROM);
    const gen = join(dir, 'generated');
    expect(filesUnder(gen)).toEqual([...expected.files.keys()].sort());
    for (const [path, text] of expected.files) expect(readFileSync(join(gen, path), 'utf8') === text, path).toBe(true);
    // The warnings and skipped lines are those of one thread too.
    const single = spawnSync(process.execPath, [...WATCH, BIN, 'generate', '--cwd', dir, '--no-cache'], {
      encoding: 'utf8',
      env: { ...process.env, WASTEGEN_COMPILE_THREADS: '1' },
    });
    expect(single.status).toBe(0);
    expect(single.stderr).not.toMatch(/compile-worker/);
    expect(single.stdout.split('\n').filter((l) => l.startsWith('skipped '))).toEqual(
      expected.skipped.map((s) => `skipped ${s.file}: ${s.reason}`),
    );
  }, 120_000);

  it('reports every problem of one thread, and writes nothing, when definitions are wrong', () => {
    const dir = project();
    const views = join(dir, 'definitions/views');
    const names = readdirSync(views).sort();
    // One file that does not parse, early; one field of a wrong shape, late.
    writeFileSync(join(views, names[3] as string), '{ "id": 1004, ');
    const late = join(views, names[names.length - 5] as string);
    const json = JSON.parse(readFileSync(late, 'utf8'));
    json.disTemplate.formOption[2].dataType = { not: 'a type' };
    json.disTemplate.basicOption.operationWidth = 'wide';
    writeFileSync(late, JSON.stringify(json, null, 2));

    const r = run('generate', '--cwd', dir);
    expect(r.status).toBe(1);
    expect(existsSync(join(dir, 'generated'))).toBe(false);
    expect(readdirSync(dir).filter((n) => n.startsWith('.wastegen-tmp-'))).toEqual([]);
    // Printed as one thread prints them: warnings first, then the errors (each sorted).
    const lines = (text: string) =>
      text.split('\n').filter((l) => l !== '' && !l.startsWith('wastegen: ') && !l.startsWith('  hint: fix the definitions'));
    const expected = sortProblems(oneThread(dir).problems).map(formatProblem).join('\n');
    expect(expected).toMatch(/not valid JSON/);
    expect(lines(r.stderr).sort()).toEqual(lines(expected).sort());
    const single = runOneThread('generate', '--cwd', dir);
    expect(single.status).toBe(1);
    expect(single.stderr).toBe(r.stderr);
  }, 120_000);
});

describe('compile() handing its files over as they are emitted', () => {
  it('hands over every text it would have returned, and keeps none of them', () => {
    const dir = project();
    const sources = readDefinitionFiles(loadProject({ cwd: dir }));
    const kept = compile(sources, 'definitions/');
    const handed = new Map<string, string>();
    const streamed = compile(sources, 'definitions/', { onFile: (path, text) => handed.set(path, text) });
    expect(kept.files.size).toBeGreaterThan(2 * THREADED_FROM);
    expect(streamed.files.size).toBe(0);
    expect([...handed.keys()].sort()).toEqual([...kept.files.keys()].sort());
    for (const [path, text] of kept.files) expect(handed.get(path) === text, path).toBe(true);
    expect([...streamed.origins]).toEqual([...kept.origins]);
    expect(streamed.pages.length).toBe(kept.pages.length);
  }, 60_000);
});
