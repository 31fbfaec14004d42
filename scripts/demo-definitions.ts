// `npm run demo:definitions`: refreshes the committed demo set. It starts the reference server on a
// fresh in-memory database (seeded exactly as `npm start` seeds it), logs in as admin through the
// real captcha + RSA login, then runs `wastegen pull` and `wastegen generate` against it, so that
// definitions/ and generated/ are what a team gets from `wastegen pull && wastegen generate`.
import { main } from '../cli/main.js';
import { startTestServer } from '../tests/helpers/server.js';

const server = await startTestServer();
let code = 1;
try {
  const admin = await server.login('admin');
  const auth = ['--server', server.url, '--token', admin.token ?? ''];
  if (server.config.signSecret) auth.push('--sign-secret', server.config.signSecret);
  code = await main(['node', 'wastegen', 'pull', ...auth]);
  if (code === 0) code = await main(['node', 'wastegen', 'generate']);
} finally {
  await server.close();
}
process.exit(code);
