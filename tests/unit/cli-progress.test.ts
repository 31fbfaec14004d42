import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Output } from '../../cli/errors.js';
import { main } from '../../cli/main.js';
import { bar, startProgress } from '../../cli/progress.js';

/** Progress on a terminal, one summary line elsewhere, --quiet and --json of `wastegen generate`. */

const FIXTURES = join(import.meta.dirname, '../fixtures');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-progress-'));
  made.push(dir);
  cpSync(join(FIXTURES, 'screens', 'definitions'), join(dir, 'definitions'), { recursive: true });
  cpSync(join(FIXTURES, 'basic-view', 'definitions'), join(dir, 'definitions'), { recursive: true });
  return dir;
}

async function run(tty: boolean, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const drawn: string[] = [];
  const output: Output = {
    out: (l) => out.push(...l.split('\n')),
    err: (l) => err.push(...l.split('\n')),
    ...(tty ? { progress: (l: string) => drawn.push(l) } : {}),
  };
  const code = await main(['node', 'wastegen', ...args], output);
  return { code, out, err, drawn };
}

describe('progress of wastegen generate', () => {
  it('draws counts and a bar on a terminal, and clears the line at the end', async () => {
    const root = project();
    const r = await run(true, 'generate', '--cwd', root);
    expect(r.code).toBe(0);
    expect(r.drawn.length).toBeGreaterThan(0);
    expect(r.drawn[0]).toMatch(/^generate \[[#-]{24}\] 1\/\d+$/);
    expect(r.drawn.at(-1)).toBe('');
    expect(r.out.at(-1)).toMatch(/^generated \d+ pages into generated\/: \d+ added/);
  });

  it('prints no bar when the output is not a terminal, and ends with one summary line', async () => {
    const root = project();
    const r = await run(false, 'generate', '--cwd', root);
    expect(r.code).toBe(0);
    expect(r.drawn).toEqual([]);
    expect(r.out.filter((l) => l.startsWith('generated '))).toHaveLength(1);
    expect(r.out.join('\n')).not.toContain('[#');
  });

  it('--quiet prints nothing but problems, even on a terminal, and still writes', async () => {
    const root = project();
    const r = await run(true, 'generate', '--cwd', root, '--quiet');
    expect(r.code).toBe(0);
    expect([...r.out, ...r.drawn].filter(Boolean)).toEqual([]);
    for (const line of r.err) expect(line).toMatch(/: warning: /);
    const again = await run(false, 'check', '--cwd', root);
    expect(again.code).toBe(0);
  });

  it('--json prints one JSON document and nothing else, no bar', async () => {
    const root = project();
    const r = await run(true, 'generate', '--cwd', root, '--json');
    expect(r.code).toBe(0);
    expect(r.drawn).toEqual([]);
    const doc = JSON.parse(r.out.join('\n'));
    expect(doc).toMatchObject({ ok: true, upToDate: false });
    expect(doc.added.length).toBeGreaterThan(0);
    const noop = await run(true, 'generate', '--cwd', root, '--json');
    expect(JSON.parse(noop.out.join('\n'))).toMatchObject({ ok: true, upToDate: true });
  });
});

describe('the progress line', () => {
  it('shows the share done as a bar of 24 and the counts', () => {
    expect(bar('pull', 0, 10)).toBe(`pull [${'-'.repeat(24)}] 0/10`);
    expect(bar('pull', 5, 10)).toBe(`pull [${'#'.repeat(12)}${'-'.repeat(12)}] 5/10`);
  });

  it('draws nothing without a terminal or when disabled', () => {
    const drawn: string[] = [];
    const tty: Output = { out() {}, err() {}, progress: (l) => drawn.push(l) };
    startProgress({ out() {}, err() {} }, 'x').update(1, 2);
    startProgress(tty, 'x', false).update(1, 2);
    expect(drawn).toEqual([]);
    startProgress(tty, 'x').update(1, 2);
    expect(drawn).toEqual([bar('x', 1, 2)]);
  });
});
