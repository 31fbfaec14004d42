#!/usr/bin/env node
// `npm test`: everything, in order of cost. Type-check, lint (biome, the layers' import boundaries,
// the API contract) and `wastegen check`, build the app (with a signing secret, so the browser suite
// proves the app signs what the server checks), then the unit,
// server and browser suites in one vitest run. When TEST_DATABASE_URL points at a PostgreSQL
// server (.ci/run starts one), the server suite runs a second time against it.
import { spawnSync } from 'node:child_process';

const SIGN_SECRET = 'test-sign-secret';
const node = process.execPath;

function step(title, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const t = Date.now();
  const r = spawnSync(node, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`✖ ${title} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
  console.log(`✔ ${title} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

step('type-check', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json']);
step('lint', ['node_modules/@biomejs/biome/bin/biome', 'check', '.']);
step('lint: import boundaries (layers, packages, indexes, cycles)', ['scripts/check-boundaries.mjs']);
step('lint: API contract (addresses, refusals by code, docs/openapi.json)', ['scripts/check-contract.mjs']);
step('wastegen check (generated/ in sync with definitions/)', ['cli/bin.js', 'check']);
step('build app', ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { SIGN_SECRET });
const pgUrl = process.env.TEST_DATABASE_URL;
step('tests on PGlite (unit, server, browser)', ['node_modules/vitest/vitest.mjs', 'run'], { TEST_DATABASE_URL: '' });
if (pgUrl) {
  step('server tests on PostgreSQL', ['node_modules/vitest/vitest.mjs', 'run', '--project', 'server'], { TEST_DATABASE_URL: pgUrl });
}
