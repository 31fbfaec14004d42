#!/usr/bin/env node
// The `wastegen` command. The CLI is TypeScript; tsx compiles it on the fly so the same sources
// serve `npm link`, `npx wastegen` and the tests without a separate build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv);
