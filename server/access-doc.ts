import type { CallSpec } from '../src/contract/define.js';
import { RESOURCES } from '../src/contract/index.js';
import { accessOf, type RouteEntry } from './app.js';
import { accessConfig } from './resources/register.js';

/** Where the table of who may call what is kept, relative to the repository root. */
export const ACCESS_DOC_PATH = 'docs/access.md';

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/** What a route's declaration means, in the words of the table. */
function who(entry: Pick<RouteEntry, 'config' | 'websocket'>): string {
  const kind = accessOf(entry.config);
  const pending = entry.config.pending ? '; also before the password is changed or the agreement accepted' : '';
  if (kind === 'public') return entry.websocket ? 'public (checks its own token)' : 'public';
  if (kind === 'session') return `any signed-in user${pending}`;
  const perms = [entry.config.permission].flat().map((p) => `\`${p}\``);
  const platform = entry.config.platform ? ', data scope 全部 only' : '';
  return `${perms.join(' or ')}${platform}${pending}`;
}

/**
 * The table of every API route and who may call it, as written from the running app's own route
 * table; a test keeps the committed copy equal to it.
 */
export function renderAccessDoc(table: readonly RouteEntry[]): string {
  const declared = RESOURCES.flatMap((r) =>
    Object.entries(r.calls).map(([name, c]: [string, CallSpec]) => ({
      method: c.method,
      url: c.path,
      who: who({ config: accessConfig(r.name, name, c), websocket: false }),
    })),
  );
  const rows = [
    ...declared,
    ...table
      .filter((r) => r.method !== 'HEAD' && !r.config.contract && (r.url.startsWith('/api') || r.url.startsWith('/websocket')))
      .map((r) => ({ method: r.method, url: r.url, who: who(r) })),
  ].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  const lines = [
    '# Who may call what',
    '',
    'Every call of the API contract (src/contract) declares its access, the server registers its route from',
    "that declaration, and one hook reads the matched route's declaration after routing. This table is written",
    'from the contract (and the few routes that are no calls, such as the websocket) by `npm run docs:access`;',
    'a server test fails when it differs from the routes.',
    '',
    '- **public**: no session needed.',
    '- **any signed-in user**: a valid session token.',
    '- **a permission**: a session whose roles grant it (any one of those listed); administrators and the `*:*:*`',
    "  wildcard pass every permission. Routes over low-code views also check the view's own permission.",
    '- **data scope 全部 only**: the permission counts only for accounts whose data scope is 全部 (administrators,',
    "  the supervisory department, platform roles of 全部), since the call reaches every company's records.",
    '- Accounts whose password expired, or that have not accepted the entry agreement, may call only the rows',
    '  marked "also before …"; everything else answers 403 with the reason.',
    '',
    '| method | path | who may call it |',
    '| --- | --- | --- |',
    ...rows.map((r) => `| ${r.method} | \`${escapeCell(r.url)}\` | ${escapeCell(r.who)} |`),
    '',
  ];
  return lines.join('\n');
}
