import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RESOURCES } from '../../src/contract/index.js';
import { openApiDocument } from '../../src/contract/openapi.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';

/** The project's folder: found upwards from this module, which runs from server/routes or from the server's bundle in server/dist. */
function projectRoot(): string {
  let dir = import.meta.dirname;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'server/api-docs'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('the project folder (package.json beside server/api-docs) was not found');
    dir = up;
  }
  return dir;
}
const ROOT = projectRoot();
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The API document, written from the contract, and a page that reads it: public, since it describes
 * only what the app itself calls; API_DOCS=0 leaves both unregistered. A browser opens them by address,
 * so they are answered without a request signature.
 */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  if (!ctx.config.apiDocs) return;
  const document = JSON.stringify(openApiDocument(RESOURCES, VERSION));
  const page = readFileSync(join(ROOT, 'server/api-docs/index.html'), 'utf8');
  const viewer = readFileSync(join(ROOT, 'server/api-docs/viewer.js'), 'utf8');
  const config = { public: true, unsigned: true } as const;
  app.get('/api/docs', { config }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page),
  );
  app.get('/api/docs/openapi.json', { config }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(document),
  );
  app.get('/api/docs/viewer.js', { config }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(viewer),
  );
}
