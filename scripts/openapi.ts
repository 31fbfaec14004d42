// `npm run docs:openapi`: writes docs/openapi.json and src/contract/bare.gen.ts from the API contract
// (src/contract). With --check (run by `npm run lint`), writes nothing and fails when either is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { RESOURCES } from '../src/contract/index.js';
import { openApiDocument } from '../src/contract/openapi.js';
import { BARE_PATH, bareSource } from './contract-bare.js';

const docArg = process.argv.indexOf('--doc');
/** The committed document; `--doc FILE` checks another copy. */
const OPENAPI_PATH = docArg > 0 ? (process.argv[docArg + 1] as string) : 'docs/openapi.json';

const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const text = `${JSON.stringify(openApiDocument(RESOURCES, version), null, 2)}\n`;
const bare = await bareSource(process.cwd());
const read = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // A missing file is stale.
  }
};
if (process.argv.includes('--check')) {
  let stale = false;
  if (read(OPENAPI_PATH) !== text) {
    console.error(`${OPENAPI_PATH}: stale, the contract (src/contract) changed; run npm run docs:openapi and commit it`);
    stale = true;
  } else console.log(`${OPENAPI_PATH}: up to date`);
  if (docArg < 0) {
    if (read(BARE_PATH) !== bare) {
      console.error(`${BARE_PATH}: stale, the contract (src/contract) changed; run npm run docs:openapi and commit it`);
      stale = true;
    } else console.log(`${BARE_PATH}: up to date`);
  }
  if (stale) process.exit(1);
} else {
  writeFileSync(OPENAPI_PATH, text);
  writeFileSync(BARE_PATH, bare);
  console.log(`wrote ${OPENAPI_PATH} and ${BARE_PATH}`);
}
