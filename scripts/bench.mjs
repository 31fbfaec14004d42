#!/usr/bin/env node
// `npm run bench`: every benchmark under bench/ (files named *.bench.ts), one after the other,
// each in its own process so one's warm caches do not flatter the next. Each prints its figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv[2];
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n━━ bench/${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${f}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (failed) {
  console.error(`\n${failed} benchmark(s) missed their budget or failed`);
  process.exit(1);
}
