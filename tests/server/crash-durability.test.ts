import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, DEMO_PASSWORD, TEST_CAPTCHA } from '../helpers/server.js';

/**
 * A write the server acknowledged survives the process being killed: the server runs as a child on
 * embedded PGlite in a data folder of its own, takes a storm of concurrent adds, is killed with
 * SIGKILL in the middle of it, and started again on the same folder, where every acknowledged add
 * must be found with its content.
 */
const ROOT = join(import.meta.dirname, '../..');
const VIEW = 17;
const children = new Set<ChildProcess>();
const dataDir = mkdtempSync(join(tmpdir(), 'wastegen-crash-'));

async function start(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
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
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
  return { child, url };
}

async function login(url: string): Promise<ApiClient> {
  const api = new ApiClient(url);
  const res = await api.loginRaw('admin', DEMO_PASSWORD);
  if (res.body.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return api.withToken(res.body.token);
}

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('crash durability on embedded PGlite', () => {
  it('finds every acknowledged write after a SIGKILL during a storm of writes', async () => {
    const first = await start();
    const admin = await login(first.url);
    const sample = (await admin.get(`/api/general/list/${VIEW}`, { page: 0, size: 1, sort: 'id,asc' })).body.content[0];
    const { id: _i, createTime: _c, updateTime: _u, createBy: _b, ...record } = sample;

    const acknowledged = new Map<number, string>();
    let attempts = 0;
    let killed = false;
    const storm = Array.from({ length: 8 }, async (_, client) => {
      for (let k = 0; !killed; k++) {
        const plate = `沪D${String(client)}${String(k).padStart(4, '0')}`;
        attempts++;
        try {
          const r = await admin.post(`/api/general/add/${VIEW}`, { ...record, plateNo: plate });
          if (r.status === 200 && r.body.status === 200) acknowledged.set(r.body.id, plate);
        } catch {
          return; // the connection died with the server
        }
      }
    });
    // Kill once a good number of writes were acknowledged, while more are in flight.
    while (acknowledged.size < 60) await new Promise((r) => setTimeout(r, 5));
    killed = true;
    first.child.kill('SIGKILL');
    await Promise.all(storm);
    expect(attempts).toBeGreaterThan(acknowledged.size);

    const second = await start();
    const again = await login(second.url);
    const rows = (await again.get(`/api/general/list/${VIEW}`, { page: 0, size: 1000, sort: 'id,desc' })).body.content as {
      id: number;
      plateNo: string;
    }[];
    const found = new Map(rows.map((r) => [r.id, r.plateNo]));
    const lost = [...acknowledged].filter(([id, plate]) => found.get(id) !== plate);
    expect(lost).toEqual([]);
    second.child.kill('SIGTERM');
  }, 120_000);
});
