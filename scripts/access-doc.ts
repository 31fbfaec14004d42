// `npm run docs:access`: writes docs/access.md, the table of every route and who may call it, from the
// route table of a server started on a fresh in-memory database.
import { writeFileSync } from 'node:fs';
import { ACCESS_DOC_PATH, renderAccessDoc } from '../server/access-doc.js';
import { routeTable } from '../server/app.js';
import { startTestServer } from '../tests/helpers/server.js';

const server = await startTestServer();
try {
  writeFileSync(ACCESS_DOC_PATH, renderAccessDoc(routeTable(server.app)));
  console.log(`wrote ${ACCESS_DOC_PATH}`);
} finally {
  await server.close();
}
