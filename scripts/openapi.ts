// `npm run docs:openapi`: writes docs/openapi.json from the API contract (src/contract).
// With --check (run by `npm run lint`), writes nothing and fails when the committed copy is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { RESOURCES } from '../src/contract/index.js';
import { openApiDocument } from '../src/contract/openapi.js';

const docArg = process.argv.indexOf('--doc');
/** The committed document; `--doc FILE` checks another copy. */
const OPENAPI_PATH = docArg > 0 ? (process.argv[docArg + 1] as string) : 'docs/openapi.json';

const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const text = `${JSON.stringify(openApiDocument(RESOURCES, version), null, 2)}\n`;
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(OPENAPI_PATH, 'utf8');
  } catch {
    // A missing document is stale.
  }
  if (committed !== text) {
    console.error(`${OPENAPI_PATH}: stale, the contract (src/contract) changed; run npm run docs:openapi and commit it`);
    process.exit(1);
  }
  console.log(`${OPENAPI_PATH}: up to date`);
} else {
  writeFileSync(OPENAPI_PATH, text);
  console.log(`wrote ${OPENAPI_PATH}`);
}
