import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The CI recipe end to end: pull from the reference server (in-process, on a free port), generate,
 * type-check what was generated, then check. The pulled definitions and the generated pages must
 * also be exactly the committed demo set: a seed change without `npm run demo:definitions` fails here.
 */
const ROOT = join(import.meta.dirname, '../..');
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  // Inside the repository, so that generated pages resolve react, zod and the @wastegen aliases.
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'tmp', 'roundtrip-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'wastegen', ...args, '--cwd', dir], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function files(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name !== '.gitkeep') out.set(relative(root, p).split('\\').join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  return out;
}

describe('wastegen pull → generate → tsc → check', () => {
  it('round-trips the seeded demo set', async () => {
    const admin = await server.login('admin');
    const auth = ['--server', server.url, '--token', admin.token as string];
    if (server.config.signSecret) auth.push('--sign-secret', server.config.signSecret);

    const pulled = await cli('pull', ...auth);
    expect(pulled.code, pulled.err).toBe(0);
    expect([...files(join(dir, 'definitions')).entries()]).toEqual([...files(join(ROOT, 'definitions')).entries()]);

    const generated = await cli('generate');
    expect(generated.code, generated.err).toBe(0);
    const out = files(join(dir, 'generated'));
    expect([...out.keys()]).toEqual(expect.arrayContaining(['routes.ts', 'views/12-stock-in/page.tsx', 'views/12-stock-in/schema.ts']));
    expect([...out.entries()]).toEqual([...files(join(ROOT, 'generated')).entries()]);

    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error('tsconfig.json does not parse');
    const program = ts.createProgram(
      [...out.keys()].map((f) => join(dir, 'generated', f)),
      { ...config.options, noEmit: true },
    );
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);

    const checked = await cli('check');
    expect(checked.code, checked.err).toBe(0);
  }, 120_000);
});
