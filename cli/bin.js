#!/usr/bin/env node
// The `wastegen` command. It runs the compiled JavaScript in cli/dist (built by `npm install`'s
// prepare script); when that build is missing or older than the sources, it is rebuilt first, so
// what runs is always what the sources say. No TypeScript compiler is loaded at run time.
import { buildCli, isFresh } from './build.mjs';

if (!isFresh()) await buildCli();
const { main } = await import('./dist/main.js');
process.exitCode = await main(process.argv);
