#!/usr/bin/env node
// `npm run dev`: the reference API server on API_PORT (default 8081) and Vite's dev server on
// 127.0.0.1:5173, whose proxy forwards /api and /websocket to it. Stopping one stops both.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const apiPort = process.env.API_PORT || '8081';
const apiEnv = { ...process.env, HOST: '127.0.0.1', PORT: apiPort };
const viteEnv = { ...process.env, API_PORT: apiPort };

// Own process groups, so each child gets exactly one signal from us rather than a second one from
// the terminal; stdin is not shared, as a background reader of the terminal would be stopped.
const stdio = ['ignore', 'inherit', 'inherit'];
const children = [
  spawn(node, ['--import', 'tsx', 'server/main.ts'], { cwd: root, env: apiEnv, stdio, detached: true }),
  spawn(node, ['node_modules/vite/bin/vite.js', '--host', '127.0.0.1', '--port', '5173', '--strictPort'], {
    cwd: root,
    env: viteEnv,
    stdio,
    detached: true,
  }),
];
const names = ['API server', 'Vite'];
console.log(`▶ npm run dev: open http://127.0.0.1:5173 (Vite, hot reload); the API server listens on 127.0.0.1:${apiPort}`);

let stopping = false;
function stopAll(signal = 'SIGTERM') {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  // Whatever does not stop in time is not left behind.
  setTimeout(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, 5000).unref();
}

let exitCode = 0;
children.forEach((child, i) => {
  child.on('error', (e) => {
    console.error(`npm run dev: ${names[i]} could not start: ${e.message}`);
    exitCode = 1;
    stopAll();
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`npm run dev: ${names[i]} stopped (${signal ?? `exit code ${code}`}); stopping the other one`);
      exitCode = code || 1;
      stopAll();
    }
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
  });
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(signal === 'SIGHUP' ? 'SIGTERM' : signal));
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
