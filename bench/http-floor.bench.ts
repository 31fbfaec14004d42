// The floor under the list benches: Fastify answering a fixed list page from memory to the same load as
// the mixed list bench (50 keep-alive clients that each send the next call when the last is answered and
// parse every answer), on this machine, with and without the reference server's security headers. It
// has no budget: it says what requests/s and p95 the machine gives when a call costs the server nothing
// but HTTP, and the CPU per call of the load generator and of the server. BENCH_SECONDS and BENCH_CLIENTS
// change the run.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { httpClient } from './lib/http-client.js';
import { latencyFigures } from './lib/measure.js';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);

async function floor(label: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/http-floor-server.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
  const { url } = JSON.parse(await next()) as { url: string };
  const serverCpu = async () => {
    const line = next();
    child.kill('SIGUSR2');
    return (JSON.parse(await line) as { cpuMs: number }).cpuMs;
  };
  const client = httpClient(url, '', CLIENTS);
  const load = async (ms: number, latencies?: number[]) => {
    const end = Date.now() + ms;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < end) {
          const t = performance.now();
          const r = await client.call('GET', '/api/general/list/12?page=0&size=10', undefined, true);
          if (r.status !== 200 || !Array.isArray(r.body?.content)) throw new Error(`the floor server answered ${r.status}`);
          latencies?.push(performance.now() - t);
        }
      }),
    );
  };
  try {
    await load(3000);
    const latencies: number[] = [];
    const server0 = await serverCpu();
    const load0 = process.cpuUsage();
    const t0 = performance.now();
    await load(DURATION_MS, latencies);
    const seconds = (performance.now() - t0) / 1000;
    const loadCpu = process.cpuUsage(load0);
    const server = (await serverCpu()) - server0;
    const { p50, p95 } = latencyFigures(latencies);
    const perCall = (ms: number) => +(ms / latencies.length).toFixed(3);
    return {
      label,
      rps: Math.round(latencies.length / seconds),
      p50,
      p95,
      'load generator CPU ms/call': perCall((loadCpu.user + loadCpu.system) / 1000),
      'server CPU ms/call': perCall(server),
    };
  } finally {
    client.close();
    child.kill('SIGTERM');
  }
}

const results = [await floor('Fastify, a page from memory', {}), await floor('the same with the security headers', { HELMET: '1' })];
console.log(`\nHTTP floor: ${CLIENTS} keep-alive clients, ${DURATION_MS / 1000} s each, every answer parsed`);
console.table(results);
