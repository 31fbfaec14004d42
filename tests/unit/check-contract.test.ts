import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
/** Each check is a node process that loads TypeScript: give it room on a busy machine. */
const SLOW = 60_000;
const SCRIPT = join(ROOT, 'scripts/check-contract.mjs');

const temp = mkdtempSync(join(tmpdir(), 'wastegen-contract-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A project of its own: each file path and its text. */
function tree(name: string, files: Record<string, string>): string {
  const root = join(temp, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root: string): { status: number | null; problems: string[] } {
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: r.status, problems: r.stderr.split('\n').filter((l) => /^\S+:\d+: /.test(l)) };
}

const CATALOGUE = "export const ERROR_MESSAGES = {\n  NO_PERMISSION: '没有权限执行该操作',\n  USER_NOT_FOUND: '用户不存在',\n} as const;\n";
const LAWFUL = {
  'src/shared/error-catalogue.ts': CATALOGUE,
  'src/contract/users.ts': "export const path = '/api/users';\n",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a planted file
  'src/model/routes.ts': 'export const list = (id: number) => `/api/general/list/${id}`;\n',
  'src/pages/users.tsx': "import { path } from '../contract/users';\n// A comment may say /api/users.\nexport const p = path;\n",
  'src/pages/users.test.ts': "export const t = '/api/users';\n",
  'server/routes/users.ts':
    "import { notFound, refusal } from '../errors.js';\nexport const f = () => { throw notFound('USER_NOT_FOUND'); };\nexport const g = () => refusal(403, 'NO_PERMISSION');\n",
};

describe('the contract lint', () => {
  it(
    'passes on addresses in the contract and the model, and refusals by code',
    () => {
      const r = check(tree('lawful', LAWFUL));
      expect(r.problems).toEqual([]);
      expect(r.status).toBe(0);
    },
    SLOW,
  );

  it(
    'fails on an /api/ address in app code, naming the file and line',
    () => {
      const r = check(
        tree('address', {
          ...LAWFUL,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a planted file
          'src/pages/orders.tsx': "export const load = () => fetch('/api/orders');\nexport const t = `/api/orders/${1}`;\n",
        }),
      );
      expect(r.status).toBe(1);
      expect(r.problems).toEqual([
        'src/pages/orders.tsx:1: an /api/ address outside src/contract (call it through the contract): "/api/orders"',
        'src/pages/orders.tsx:2: an /api/ address outside src/contract (call it through the contract): "/api/orders/"',
      ]);
    },
    SLOW,
  );

  it(
    'fails on a refusal with free text, in any of the helpers',
    () => {
      const r = check(
        tree('free-text', {
          ...LAWFUL,
          'server/routes/orders.ts':
            // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a planted file
            "import { badRequest, refusal } from '../errors.js';\nexport const f = () => { throw badRequest('订单不存在'); };\nexport const g = (n: number) => refusal(400, `第${n}行错误`);\n",
        }),
      );
      expect(r.status).toBe(1);
      expect(r.problems).toEqual([
        "server/routes/orders.ts:2: a refusal with free text; name a code of the error catalogue: '订单不存在'",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a planted file
        'server/routes/orders.ts:3: a refusal with free text; name a code of the error catalogue: `第${n}行错误`',
      ]);
    },
    SLOW,
  );

  it(
    'fails on a stale docs/openapi.json',
    () => {
      const stale = join(temp, 'stale-openapi.json');
      const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
      doc.paths['/api/planted'] = {};
      writeFileSync(stale, JSON.stringify(doc, null, 2));
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', '--check', '--doc', stale], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('stale');
      const fresh = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', '--check'], { cwd: ROOT, encoding: 'utf8' });
      expect(fresh.stdout).toContain('up to date');
      expect(fresh.status).toBe(0);
    },
    SLOW,
  );
});
