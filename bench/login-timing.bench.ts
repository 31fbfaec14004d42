// Login timing: an unknown username must not answer measurably faster than a known one with a wrong
// password, or the login form tells which accounts exist. Budget: the medians of the two are within
// 20% of each other. The server runs on PGlite (or PostgreSQL when BENCH_DATABASE_URL or
// TEST_DATABASE_URL is set) with the per-IP limit and the account lock out of the way; only the login
// call itself is timed, the captcha and the password's encryption are prepared beforehand.
// BENCH_LOGIN_ROUNDS changes the number of measured rounds (default 40, after 5 to warm up).
import { type ApiClient, startTestServer, TEST_CAPTCHA } from '../tests/helpers/server.js';

const ROUNDS = Number(process.env.BENCH_LOGIN_ROUNDS ?? 40);
const WARM_UP = 5;
const BUDGET = 0.2;

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

async function timedLogin(api: ApiClient, username: string, password: string): Promise<number> {
  const cap = await api.get('/api/auth/code');
  const form = { username, password: await api.encrypt(password), code: TEST_CAPTCHA, uuid: String(cap.body.uuid) };
  const t0 = performance.now();
  const res = await api.request('POST', '/api/auth/login', { form });
  const ms = performance.now() - t0;
  if (res.status !== 400 || res.body.message !== '用户名或密码错误')
    throw new Error(`unexpected answer: ${res.status} ${JSON.stringify(res.body)}`);
  return ms;
}

const server = await startTestServer({ loginRateMax: 1_000_000, captchaRateMax: 1_000_000, loginLockFailures: 1_000_000 });
try {
  const unknown: number[] = [];
  const wrong: number[] = [];
  for (let i = 0; i < WARM_UP + ROUNDS; i++) {
    // Alternate which goes first, so drift in the machine's speed falls on both alike.
    let u: number;
    let w: number;
    if (i % 2) {
      u = await timedLogin(server.api, 'no-such-account', 'Guess@2026');
      w = await timedLogin(server.api, 'producer', 'Guess@2026');
    } else {
      w = await timedLogin(server.api, 'producer', 'Guess@2026');
      u = await timedLogin(server.api, 'no-such-account', 'Guess@2026');
    }
    if (i < WARM_UP) continue;
    unknown.push(u);
    wrong.push(w);
  }
  const u = median(unknown);
  const w = median(wrong);
  const ratio = u / w;
  const within = Math.abs(ratio - 1) <= BUDGET;
  console.log(`database: ${server.database.kind}, rounds: ${ROUNDS}`);
  console.log(
    `unknown username: median ${u.toFixed(1)} ms (min ${Math.min(...unknown).toFixed(1)}, max ${Math.max(...unknown).toFixed(1)})`,
  );
  console.log(`wrong password:   median ${w.toFixed(1)} ms (min ${Math.min(...wrong).toFixed(1)}, max ${Math.max(...wrong).toFixed(1)})`);
  console.log(
    `ratio unknown/wrong: ${ratio.toFixed(3)} (budget ${(1 - BUDGET).toFixed(2)}–${(1 + BUDGET).toFixed(2)}): ${within ? 'within' : 'MISSED'}`,
  );
  if (!within) process.exitCode = 1;
} finally {
  await server.close();
}
