#!/usr/bin/env node
// The `wastegen` command. It runs the compiled JavaScript in cli/dist (built by `npm install`'s
// prepare script); when that build is missing or older than the sources, it is rebuilt first, so
// what runs is always what the sources say. No TypeScript compiler is loaded at run time.
import { buildCli, isFresh } from './build.mjs';

if (!isFresh()) await buildCli();
// A generate with nothing to do is answered by one CommonJS file before the rest of the CLI loads;
// one with work hands over what it read (the project and the listing of definition files).
// It has written what it prints synchronously and left nothing running: the process ends at once,
// without draining the event loop or tearing the environment down (some 10 ms).
// One with work runs from a CommonJS build of its own, loaded with V8's code cache.
const { upToDate, runHandoff } = process.getBuiltinModule('node:module').createRequire(import.meta.url)('./dist/generate-fast.cjs');
const fast = upToDate(process.argv);
if (fast === true) process.exit(0);
const exit = fast ? await runHandoff(fast) : undefined;
if (exit !== undefined) process.exitCode = exit;
else {
  const { main } = await import('./dist/main.js');
  process.exitCode = await main(process.argv, undefined, fast);
}
