import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../cli/build.mjs';

/**
 * `wastegen … | head -1`: the reader closes the pipe before the CLI has printed everything. The
 * CLI drops the rest of its output and ends with its own exit code, printing no stack trace.
 */

const BIN = join(ROOT, 'cli/bin.js');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** What the reader got before it closed the pipe. */
  read: string;
}

/**
 * Runs the CLI with stdout on a pipe whose reader goes away: at once (`after: 'start'`, so every
 * write fails) or after the first chunk it reads (as `head -1` does).
 */
function runClosingStdout(args: string[], after: 'start' | 'first chunk'): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let read = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    if (after === 'start') child.stdout.destroy();
    else
      child.stdout.once('data', (chunk: Buffer) => {
        read = chunk.toString('utf8');
        child.stdout.destroy();
      });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr, read }));
  });
}

function expectQuiet(r: Ended): void {
  expect(r.stderr).not.toMatch(/EPIPE|Error| {4}at /);
  expect(r.stderr).toBe('');
  expect(r.signal).toBeNull();
  expect(r.code).toBe(0);
}

describe('output into a pipe closed by its reader', () => {
  // The first run after a source change builds the CLI; the runs below then time nothing but the CLI.
  it('the CLI is built', () => {
    expect(spawnSync(process.execPath, [BIN, '--version'], { cwd: ROOT }).status).toBe(0);
  }, 60_000);

  for (const args of [['--help'], ['generate', '--help'], ['check', '--help'], ['pull', '--help'], ['help']]) {
    it(`wastegen ${args.join(' ')}: exits 0 with nothing on stderr when the pipe is closed at once`, async () => {
      expectQuiet(await runClosingStdout(args, 'start'));
    }, 60_000);
  }

  it('wastegen --help | head -1: the reader gets the first line, the CLI exits 0 quietly', async () => {
    const r = await runClosingStdout(['--help'], 'first chunk');
    expect(r.read.split('\n')[0]).toBe('Usage: wastegen [options] [command]');
    expectQuiet(r);
  }, 60_000);

  it('a generate whose stdout is closed still writes generated/ and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wastegen-pipe-'));
    made.push(dir);
    cpSync(join(ROOT, 'tests/fixtures/basic-view/definitions'), join(dir, 'definitions'), { recursive: true });
    expectQuiet(await runClosingStdout(['generate', '--cwd', dir], 'start'));
    const check = spawnSync(process.execPath, [BIN, 'check', '--cwd', dir], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
  }, 60_000);
});
