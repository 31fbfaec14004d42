import { startServer } from './start.js';

const DEMO_ACCOUNTS = [
  ['admin', '管理员（全部权限）'],
  ['supervisor', '监管部门（部门编码 01）'],
  ['producer', '产废企业'],
  ['disposer', '处置企业'],
  ['logistics', '物流企业（物流订单、车辆与运单）'],
  ['collector', '收集点（收集点入库与库存）'],
] as const;

try {
  const server = await startServer();
  const { config, database } = server;
  const line = '─'.repeat(60);
  console.log(`\n${line}`);
  console.log(`  wastegen back office: ${server.url}`);
  console.log(`  database: ${database.kind === 'pglite' ? `embedded PGlite (${database.location})` : `PostgreSQL (${database.location})`}`);
  console.log(
    server.created
      ? '  database created just now: migrated and filled with the demo data'
      : '  database found with its data: migrated to this version, nothing reseeded',
  );
  console.log(
    database.kind === 'pglite'
      ? '  instances: one (embedded PGlite serves a single process; set DATABASE_URL to run several)'
      : `  instances: several may share this database (bus ${server.ctx.bus.mode}, instance ${server.ctx.bus.instanceId})`,
  );
  console.log(
    `  request signing: ${config.signSecret ? 'on (SIGN_SECRET)' : 'off'}${config.captchaFixed ? '; captcha fixed (CAPTCHA_FIXED)' : ''}`,
  );
  console.log('  demo accounts (password Waste@2026):');
  for (const [u, what] of DEMO_ACCOUNTS) console.log(`    ${u.padEnd(12)} ${what}`);
  console.log(`${line}\n`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (e) {
  console.error(`wastegen server failed to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
