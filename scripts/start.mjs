#!/usr/bin/env node
// `npm start`: generate pages, build the app, then run the reference
// server, which serves the API and the built app on one origin (HOST:PORT, default 127.0.0.1:8080).
// `--no-build` (`npm run server`) runs the server alone, with the same node options.
// The build lists its files and their sizes only on request (`--verbose` or BUILD_SIZES=1); otherwise it
// prints its warnings and errors, and the server's banner (address, accounts, database) comes first.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const env = { ...process.env, HOST: process.env.HOST || '127.0.0.1', PORT: process.env.PORT || '8080' };

function fail(message) {
  console.error(`\nnpm start: ${message}`);
  process.exit(1);
}

/** Runs a build step to completion with inherited output; any failure stops the start. */
function step(title, args) {
  console.log(`\n▶ ${title}`);
  const r = spawnSync(node, args, { cwd: root, env, stdio: 'inherit' });
  if (r.error) fail(`${title} could not run: ${r.error.message}`);
  if (r.signal) fail(`${title} was stopped by ${r.signal}`);
  if (r.status !== 0) fail(`${title} failed (exit code ${r.status})`);
}

if (!process.argv.includes('--no-build')) {
  // generated/ is committed, so this is normally a no-op; after a `wastegen pull` it brings the pages up to date.
  step('wastegen generate', ['cli/bin.js', 'generate']);

  const sizes = process.argv.includes('--verbose') || env.BUILD_SIZES === '1';
  const started = Date.now();
  step(`vite build${env.SIGN_SECRET ? ' (request signing on)' : ''}`, [
    'node_modules/vite/bin/vite.js',
    'build',
    ...(sizes ? [] : ['--logLevel', 'warn']),
  ]);
  if (!sizes) console.log(`  built in ${((Date.now() - started) / 1000).toFixed(1)} s (file sizes: npm start -- --verbose)`);

  console.log('\n▶ starting the reference server');
}
// The server's node options and environment defaults (how its heap grows, how many malloc arenas: see
// docs/deploy.md), kept in one file for every way the server is started. A variable already set wins.
const serverProcess = JSON.parse(readFileSync(join(root, 'server/process-options.json'), 'utf8'));
// Own process group: a Ctrl+C reaches this script from the terminal and again from npm, and the
// server must see exactly one signal, or its second SIGINT would cut the database close short.
// The server runs from its bundle (server/build.mjs), bundled again when a source changed; if bundling
// fails, it runs from the sources through tsx, which loads far more slowly.
let entry = ['server/dist/main.js'];
const { buildServer, serverIsFresh } = await import('../server/build.mjs');
if (!serverIsFresh()) {
  try {
    await buildServer();
  } catch (e) {
    console.error(`npm start: bundling the server failed, so it runs from its sources: ${e instanceof Error ? e.message : e}`);
    entry = ['--import', 'tsx', 'server/main.ts'];
  }
}
const server = spawn(node, [...serverProcess.args, ...entry], {
  cwd: root,
  env: { ...serverProcess.env, ...env },
  stdio: ['ignore', 'inherit', 'inherit'],
  detached: true,
});
server.on('error', (e) => fail(`the server could not start: ${e.message}`));

let stoppedAt = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (server.exitCode !== null) return;
    if (!stoppedAt) {
      stoppedAt = Date.now();
      server.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    } else if (Date.now() - stoppedAt > 2000) {
      // Asked again well after the first request: the server is stuck closing.
      server.kill('SIGKILL');
    }
  });
}
server.on('exit', (code, signal) => {
  if (stoppedAt || code === 0) process.exit(0);
  fail(`the server stopped (${signal ?? `exit code ${code}`})`);
});
