import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isLogged } from '../../server/request-log.js';
import { TEST_CAPTCHA } from '../helpers/server.js';

// What `npm start` prints: a banner people read, then one log line per answered request, readable
// lines for a terminal and JSON lines for a collector (LOG_FORMAT), never a token from the address.

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '../..');
const children = new Set<ChildProcess>();

afterEach(async () => {
  for (const c of children) {
    c.kill('SIGKILL');
    await new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r)));
  }
  children.clear();
});

/**
 * Starts server/main.ts (or another command that runs it) and collects its stdout lines; resolves once the
 * banner has named the address.
 */
async function start(format: 'pretty' | 'json', args = ['--import', 'tsx', 'server/main.ts']) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: 'memory://',
      DATABASE_URL: '',
      CAPTCHA_FIXED: TEST_CAPTCHA,
      LOG_LEVEL: 'info',
      LOG_FORMAT: format,
      STATIC_DIR: '/nonexistent',
      SIGN_SECRET: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const lines: string[] = [];
  const waiters: { test: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (!w.test(line)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(line);
    }
  });
  const lineMatching = (test: (l: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find(test);
      if (seen !== undefined) return resolve(seen);
      waiters.push({ test, resolve });
      child.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}); printed:\n${lines.join('\n')}`)));
    });
  const banner = await lineMatching((l) => /wastegen back office: http:\/\//.test(l));
  const url = /(http:\/\/\S+)/.exec(banner)?.[1] as string;
  return { child, lines, url, lineMatching };
}

/** The processes whose parent is `pid`, with their command lines (Linux /proc). */
function childrenOf(pid: number): { pid: number; args: string[] }[] {
  const out: { pid: number; args: string[] }[] = [];
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // After the name: state, then the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push({ pid: Number(d), args: readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').filter(Boolean) });
    } catch {
      // The process ended while being read.
    }
  }
  return out;
}

describe('npm run server', () => {
  it.runIf(process.platform === 'linux')('runs the server with its node options, and stops it when stopped itself', async () => {
    const s = await start('pretty', ['scripts/start.mjs', '--no-build']);
    const server = childrenOf(s.child.pid as number).find((c) => c.args.at(-1) === 'server/dist/main.js');
    const { args: options, env: defaults } = JSON.parse(readFileSync(join(ROOT, 'server/process-options.json'), 'utf8')) as {
      args: string[];
      env: Record<string, string>;
    };
    expect(options.length).toBeGreaterThan(0);
    expect(server?.args.slice(1, 1 + options.length)).toEqual(options);
    // Its environment defaults are set, unless the caller set them.
    const environ = new Map(
      readFileSync(`/proc/${server?.pid}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
    expect(Object.keys(defaults).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(defaults)) expect(environ.get(name)).toBe(process.env[name] ?? value);
    // From its bundle, bundled again when a source changed.
    expect(server?.args.slice(-1)).toEqual(['server/dist/main.js']);
    expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
    // The server runs in its own process group: the script passes the signal on and exits once it has.
    const exited = new Promise((r) => s.child.once('exit', r));
    s.child.kill('SIGTERM');
    await exited;
    expect(childrenOf(s.child.pid as number)).toEqual([]);
    expect(() => process.kill(server?.pid as number, 0)).toThrow();
  });
});

describe('the request log', () => {
  it('leaves out the app files and pages served well, and keeps every call and every failure', () => {
    expect(isLogged('/assets/main-abc.js', 200)).toBe(false);
    expect(isLogged('/assets/main-abc.js', 304)).toBe(false);
    expect(isLogged('/favicon.svg', 200)).toBe(false);
    expect(isLogged('/dashboard', 200)).toBe(false);
    expect(isLogged('/assets/gone.js', 404)).toBe(true);
    expect(isLogged('/api/auth/code', 200)).toBe(true);
    expect(isLogged('/api', 404)).toBe(true);
    expect(isLogged('/websocket/admin?token=x', 101)).toBe(true);
  });
});

describe('npm start output', () => {
  it('prints a banner whose account descriptions are all Chinese, and readable request lines without tokens', async () => {
    const s = await start('pretty');
    const accounts = await s.lineMatching((l) => /^\s+collector\s/.test(l));
    const from = s.lines.findIndex((l) => l.includes('demo accounts'));
    const rows = s.lines.slice(from + 1, s.lines.indexOf(accounts) + 1);
    expect(rows.map((r) => r.trim().split(/\s+/)[0])).toEqual(['admin', 'supervisor', 'producer', 'disposer', 'logistics', 'collector']);
    for (const r of rows) expect(r.trim().replace(/^\S+\s+/, '')).not.toMatch(/[A-Za-z]/);
    // A fresh database says so; the address comes before the accounts.
    expect(s.lines.some((l) => /database created just now/.test(l))).toBe(true);

    expect((await fetch(`${s.url}/api/auth/code?token=s3cret-value`)).status).toBe(200);
    const line = await s.lineMatching((l) => l.includes('/api/auth/code'));
    expect(line).toMatch(/GET \/api\/auth\/code\?token=\*\*\* 200 [\d.]+ ms/);
    expect(() => JSON.parse(line)).toThrow();
    expect(s.lines.join('\n')).not.toContain('s3cret-value');
    // One line per request, not an "incoming request" and a "request completed" line.
    expect(s.lines.filter((l) => l.includes('/api/auth/code'))).toHaveLength(1);
  });

  it('writes one JSON object per answered request for a collector', async () => {
    const s = await start('json');
    expect((await fetch(`${s.url}/api/nope?token=s3cret-value`)).status).toBe(404);
    const line = await s.lineMatching((l) => l.includes('/api/nope'));
    const entry = JSON.parse(line);
    expect(entry).toMatchObject({ method: 'GET', url: '/api/nope?token=***', statusCode: 404, level: 30 });
    // One reqId per line (JSON.parse would keep the last of two).
    expect(line.match(/"reqId"/g)).toHaveLength(1);
    expect(typeof entry.responseTime).toBe('number');
    expect(s.lines.join('\n')).not.toContain('s3cret-value');
  });
});
