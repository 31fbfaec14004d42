import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, DEMO_PASSWORD, freshPostgres, TEST_CAPTCHA } from '../helpers/server.js';

/**
 * A write the server acknowledged survives the process being killed: the server runs as a child
 * process (as `npm run server` starts it) with a data folder of its own, takes a storm of concurrent
 * adds, is killed with SIGKILL in the middle of it, and is started again on the same data, where every
 * acknowledged add must be found by its id with the content that was sent. On embedded PGlite always;
 * on PostgreSQL too when TEST_DATABASE_URL is set (then the database outlives the process anyway, and
 * the test shows that no add is acknowledged before it is committed).
 */
const ROOT = join(import.meta.dirname, '../..');
/** Vehicles (seeded): every added record differs by plate and escort name. */
const VIEW = 17;
const CLIENTS = 16;

const children = new Set<ChildProcess>();
const dataDirs: string[] = [];
const databases: { drop: () => Promise<void> }[] = [];

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));

async function start(dataDir: string, databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      CAPTCHA_FIXED: TEST_CAPTCHA,
      LOG_LEVEL: 'silent',
      STATIC_DIR: '/nonexistent',
      SIGN_SECRET: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const url = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    rl.on('line', (line) => {
      const m = /wastegen back office: (http:\/\/\S+)/.exec(line);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}) before listening`)));
  });
  return { child, url };
}

async function login(url: string): Promise<ApiClient> {
  const api = new ApiClient(url);
  const res = await api.loginRaw('admin', DEMO_PASSWORD);
  if (res.body.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return api.withToken(res.body.token);
}

afterAll(async () => {
  const running = [...children];
  for (const c of running) c.kill('SIGKILL');
  await Promise.all(running.map(exited));
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  for (const db of databases) await db.drop();
});

const backends = [
  { name: 'embedded PGlite', database: async () => '' },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: 'PostgreSQL',
          database: async () => {
            const db = await freshPostgres();
            if (!db) throw new Error('TEST_DATABASE_URL is set but no database was made');
            databases.push(db);
            return db.url;
          },
        },
      ]
    : []),
];

describe.each(backends)('crash durability on $name', ({ database }) => {
  it('finds every acknowledged add, by id and content, after a SIGKILL in the middle of a storm of adds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wastegen-crash-'));
    dataDirs.push(dataDir);
    const databaseUrl = await database();
    const first = await start(dataDir, databaseUrl);
    const admin = await login(first.url);
    const sample = (await admin.get(`/api/general/list/${VIEW}`, { page: 0, size: 1, sort: 'id,asc' })).body.content[0];
    const { id: _i, createTime: _c, updateTime: _u, createBy: _b, ...seeded } = sample;

    const acknowledged = new Map<number, Record<string, unknown>>();
    let failed = 0;
    let stop = false;
    const storm = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let k = 0; !stop; k++) {
        const record = {
          ...seeded,
          plateNo: `沪${String.fromCharCode(65 + client)}${String(k % 10_000).padStart(4, '0')}5`,
          escortName: `风暴${client}-${k}`,
        };
        try {
          const r = await admin.post(`/api/general/add/${VIEW}`, record);
          if (r.status === 200 && r.body.status === 200) acknowledged.set(r.body.id, record);
          else throw new Error(`add refused: ${r.status} ${JSON.stringify(r.body)}`);
        } catch (e) {
          if (!stop) throw e;
          failed++; // the connection died with the server
          return;
        }
      }
    });
    // Killed once a few dozen adds were acknowledged (a different number each run), with CLIENTS more in flight.
    const killAt = 40 + Math.floor(Math.random() * 80);
    while (acknowledged.size < killAt) {
      await Promise.race([new Promise((r) => setTimeout(r, 2)), ...storm]);
    }
    stop = true;
    first.child.kill('SIGKILL');
    await Promise.all(storm);
    await exited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(failed).toBeGreaterThan(0); // some adds were cut off in flight: the kill came mid-storm

    const second = await start(dataDir, databaseUrl);
    const again = await login(second.url);
    const lost: unknown[] = [];
    const changed: unknown[] = [];
    for (const [id, record] of acknowledged) {
      const r = await again.get('/api/general/detail', { generalId: VIEW, id });
      if (r.status !== 200) lost.push({ id, status: r.status, body: r.body });
      else if (Object.entries(record).some(([k, v]) => JSON.stringify(r.body[k]) !== JSON.stringify(v)))
        changed.push({ id, sent: record, read: r.body });
    }
    expect(lost).toEqual([]);
    expect(changed).toEqual([]);
    expect(acknowledged.size).toBeGreaterThanOrEqual(killAt);
    second.child.kill('SIGTERM');
    await exited(second.child);
  }, 90_000);
});
