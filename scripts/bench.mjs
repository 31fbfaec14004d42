#!/usr/bin/env node
// `npm run bench`: every benchmark under bench/ (files named *.bench.ts), one after the other,
// each in its own process so one's warm caches do not flatter the next. Each prints its figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { gaugeLine } from './machine-gauge.mjs';

const only = process.argv[2];
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
if (!process.env.BENCH_DATABASE_URL && (!only || 'server-list'.includes(only))) {
  // The list benchmark also measures PostgreSQL when given one; a throw-away cluster with default durability:
  console.log(`PostgreSQL is left out of bench/server-list.bench.ts: set BENCH_DATABASE_URL to include it. A throw-away one, as .ci/run starts (but with fsync on, as in production):
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1); PGDATA=$(mktemp -d /tmp/wastegen-bench-pg.XXXXXX); chown postgres "$PGDATA"
  su postgres -s /bin/sh -c "$PGBIN/initdb -D $PGDATA -A trust -U postgres -E UTF8 --locale=C.UTF-8 && $PGBIN/pg_ctl -D $PGDATA -w -l $PGDATA/log -o '-c listen_addresses=127.0.0.1 -p 55432 -k $PGDATA -c max_connections=200 -c shared_preload_libraries=pg_stat_statements -c shared_buffers=1GB -c effective_cache_size=3GB -c work_mem=16MB' start"
  BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npm run bench server-list
  su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PGDATA -m immediate stop"; rm -rf "$PGDATA"`);
}
let failed = 0;
for (const f of files) {
  console.log(`\n━━ bench/${f}`);
  // The machine's speed before each benchmark: on a shared host it moves, and the figures with it.
  console.log(gaugeLine());
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${f}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (failed) {
  console.error(`\n${failed} benchmark(s) missed their budget or failed`);
  process.exit(1);
}
