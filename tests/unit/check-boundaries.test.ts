import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
/** Each check is a node process that loads TypeScript: give it room on a busy machine. */
const SLOW = 60_000;
const SCRIPT = join(ROOT, 'scripts/check-boundaries.mjs');

function check(root: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const temp = mkdtempSync(join(tmpdir(), 'wastegen-boundaries-'));
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

describe('import boundaries (npm run lint)', () => {
  it(
    'passes on this project',
    () => {
      const r = check(ROOT);
      expect(r.out).toContain('import boundaries: ok');
      expect(r.status).toBe(0);
    },
    SLOW,
  );

  it(
    'fails on an import that crosses a layer, naming the file, the line and the target',
    () => {
      const root = tree('crossing', {
        'src/model/types.ts': "import { hasPermission } from '../access/permission';\nexport type X = 1;\n",
        'src/engine/list.tsx': [
          "import { useState } from 'react';",
          "import type { FieldModel } from '../model/types';",
          "import { http } from '../request';",
          "export { sign } from '../shared/sign';",
          "const later = () => import('../session/session-store');",
          '',
        ].join('\n'),
        'server/routes.ts': "import { buildSchema } from '../src/model/schema';\nimport { ListPage } from '../src/engine/list';\n",
        'generated/routes.ts': "export const load = () => import('./views/1/page');\n",
        'generated/views/1/page.tsx': "import { ListPage } from '@wastegen/engine';\nimport { http } from '../../../src/request';\n",
        'src/app/anything.ts': "import { ListPage } from '../engine/list';\nimport { routes } from '../../generated/routes';\n",
      });
      const r = check(root);
      expect(r.status).toBe(1);
      const lines = r.out.split('\n').filter((l) => l.includes('may not import'));
      expect(lines.sort()).toEqual(
        [
          'generated/views/1/page.tsx:2: generated may not import ../../../src/request',
          'server/routes.ts:2: server may not import ../src/engine/list',
          'src/engine/list.tsx:3: src/engine may not import ../request',
          'src/engine/list.tsx:5: src/engine may not import ../session/session-store',
          'src/model/types.ts:1: src/model may not import ../access/permission',
        ].sort(),
      );
    },
    SLOW,
  );

  it(
    'reads generated pages through the aliases only: a relative path into the engine crosses',
    () => {
      const root = tree('relative', {
        'generated/views/1/page.tsx': "import { ListPage } from '../../../src/engine';\n",
        'src/engine/index.ts': 'export const ListPage = 1;\n',
      });
      const r = check(root);
      expect(r.status).toBe(1);
      expect(r.out).toContain('generated/views/1/page.tsx:1: generated may not import ../../../src/engine');
    },
    SLOW,
  );
});
