// Child process of bench/http-floor.bench.ts: Fastify answering one fixed list page from memory, with the
// reference server's security headers when HELMET=1. What a list call costs when the server does nothing
// but HTTP: the floor under every figure of the list benches on this machine.
import Fastify from 'fastify';
import { addSecurityHeaders, securityHeaders } from '../../server/app.js';
import { processCpuMs } from './measure.js';

const app = Fastify({ logger: false });
if (process.env.HELMET === '1') addSecurityHeaders(app, securityHeaders({ frameAncestors: [] }));
// A page of ten stock-in rows as the list call answers it (about 4 KB).
const rows = Array.from({ length: 10 }, (_, i) => ({
  id: 100_000 - i,
  createTime: '2026-03-10 10:00:00',
  updateTime: null,
  createBy: 'bench1',
  warehouseIdFmt: '压测仓库1',
  stockNo: `RK2026${String(i).padStart(8, '0')}`,
  wasteCategory: 'HW08',
  wasteCode: '900-249-08',
  wasteName: `压测废矿物油${i}`,
  quantity: 12.345,
  packageType: '1',
  warehouseId: 1,
  inTime: '2026-03-01 10:00:00',
  status: '1',
  handler: '压测员',
  handlerPhone: '13800000000',
  photos: null,
  attachments: null,
  remark: null,
}));
const page = JSON.stringify({ content: rows, totalElements: 100_000 });
app.get('/api/general/list/12', async (_req, reply) => reply.type('application/json; charset=utf-8').send(page));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify({ cpuMs: processCpuMs() })}\n`));
process.on('SIGTERM', async () => {
  await app.close();
  process.exit(0);
});
