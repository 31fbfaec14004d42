import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticProject } from '../../bench/lib/synthetic-definitions.js';
import { ROOT } from '../../cli/build.mjs';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * An interrupted `wastegen generate`, run as a user runs it (the compiled CLI, a child process, a real
 * signal), in a project large enough that the signal arrives while pages are being staged: SIGINT
 * and SIGTERM leave generated/ as it was and no temp file; after SIGKILL, check names what the run
 * left, and the next generate removes it.
 */

const BIN = join(ROOT, 'cli/bin.js');
const tempDir = tempDirs('wastegen-interrupt-');
/** Views in the project: enough that staging them takes a good part of a second. */
const VIEWS = 300;
const FIRST = 'views/1001-synthetic1001';

/** Every entry under dir, dot files included, folders ending in /. */
function entries(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => `${join(e.parentPath, e.name).slice(dir.length + 1)}${e.isDirectory() ? '/' : ''}`)
    .sort();
}

/** The bytes (as a hash) of every file under dir, and every entry. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    entries(dir).map((e) => [
      e,
      e.endsWith('/')
        ? ''
        : createHash('sha256')
            .update(readFileSync(join(dir, e)))
            .digest('hex'),
    ]),
  );
}

const temps = (dir: string) => entries(dir).filter((e) => e.includes('.wastegen-tmp-'));

const run = (dir: string, ...args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--cwd', dir], { encoding: 'utf8' });

/** A generated project whose every definition has then changed, so that a generate rewrites every page. */
function changedProject(): string {
  const dir = tempDir();
  writeSyntheticProject(dir, VIEWS);
  expect(run(dir, 'generate', '--quiet').status).toBe(0);
  const views = join(dir, 'definitions/views');
  for (const name of readdirSync(views)) {
    const file = join(views, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"合成视图 ', '"改名的合成视图 '));
  }
  return dir;
}

/**
 * How long a generate may take to end after SIGINT or SIGTERM arrives during its compile: its compile
 * stops within a slice of 20 ms and its clean-up removes a few files, where it used to finish the
 * compile first (most of a second here). Generous, for a machine running other work.
 */
const ENDS_WITHIN_MS = 400;

/**
 * Starts a generate and sends it `signal` as soon as its first temp file appears (in the first page's
 * folder, staged first); answers how it ended, and how long after the signal.
 */
async function interrupt(
  dir: string,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; ms: number }> {
  const folder = join(dir, 'generated', FIRST);
  let child: ChildProcess | undefined;
  let sent = false;
  let sentAt = 0;
  const watcher = watch(folder, (_event, name) => {
    if (sent || !child || !String(name).startsWith('.wastegen-tmp-')) return;
    sent = true;
    sentAt = performance.now();
    child.kill(signal);
  });
  try {
    child = spawn(process.execPath, [BIN, 'generate', '--cwd', dir, '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const [code, ended] = (await new Promise((resolve) => child?.once('close', (...a) => resolve(a)))) as [
      number | null,
      NodeJS.Signals | null,
    ];
    const ms = performance.now() - sentAt;
    expect(sent, `the generate ended before a temp file appeared (${code}): ${stderr}`).toBe(true);
    return { code, signal: ended, stderr, ms };
  } finally {
    watcher.close();
  }
}

describe('an interrupted generate', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`on ${signal}, removes what it staged, leaves generated/ as it was, and ends by the signal`, async () => {
      const dir = changedProject();
      const before = snapshot(join(dir, 'generated'));
      const ended = await interrupt(dir, signal);
      // Ended by the signal itself (a shell shows 130 or 143), without printing anything.
      expect(ended.signal, ended.stderr).toBe(signal);
      expect(ended.stderr).toBe('');
      // Without waiting for the rest of the compile.
      expect(ended.ms).toBeLessThan(ENDS_WITHIN_MS);
      expect(temps(dir)).toEqual([]);
      expect(snapshot(join(dir, 'generated'))).toEqual(before);
      // The next generate does the whole job.
      expect(run(dir, 'generate', '--quiet').status).toBe(0);
      expect(run(dir, 'check').status).toBe(0);
    }, 120_000);
  }

  it('on SIGKILL, leaves temp files that check reports and the next generate removes', async () => {
    const dir = changedProject();
    const ended = await interrupt(dir, 'SIGKILL');
    expect(ended.signal).toBe('SIGKILL');
    const left = temps(dir);
    expect(left.length).toBeGreaterThan(0);

    const check = run(dir, 'check');
    expect(check.status).toBe(1);
    for (const t of left) expect(check.stderr).toContain(`leftover  ${t}`);
    expect(check.stderr).toMatch(/hint: .*run `wastegen generate`, which removes them/);
    const json = JSON.parse(run(dir, 'check', '--json').stdout);
    expect(json.ok).toBe(false);
    expect(json.leftovers).toEqual(left);

    const generate = run(dir, 'generate');
    expect(generate.status, generate.stderr).toBe(0);
    expect(generate.stdout).toContain(`removed ${left.length} temp file(s) and folder(s) an interrupted generate left`);
    expect(temps(dir)).toEqual([]);
    expect(run(dir, 'check').status).toBe(0);
  }, 120_000);
});
