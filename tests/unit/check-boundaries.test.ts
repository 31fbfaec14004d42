import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
/** Each check is a node process that loads TypeScript: give it room on a busy machine. */
const SLOW = 60_000;
const SCRIPT = join(ROOT, 'scripts/check-boundaries.mjs');

function check(root: string): { status: number | null; out: string; problems: string[] } {
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return {
    status: r.status,
    out: `${r.stdout}${r.stderr}`,
    problems: r.stderr.split('\n').filter((l) => /^\S+:\d+: |^import cycle: /.test(l)),
  };
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

/** Imports every layer may make: the check passes on these alone. */
const LAWFUL = {
  'src/shared/format.ts': "import dayjs from 'dayjs';\nexport const day = dayjs;\n",
  'src/model/index.ts': "export * from './schema.js';\nexport type * from './types.js';\n",
  'src/model/schema.ts':
    "import { z } from 'zod';\nimport { day } from '../shared/format';\nexport const schema = z.string();\nexport { day };\n",
  'src/model/types.ts': 'export type PageModel = { id: number };\n',
  'src/model/schema.test.ts':
    "import { readFileSync } from 'node:fs';\nimport { it } from 'vitest';\nimport { schema } from './schema';\nit('reads', () => readFileSync(String(schema)));\n",
  'src/engine/index.ts': "export { ListPage } from './list/list-page';\n",
  'src/engine/viewer.ts': "export { ScreenView } from './screen/screen-view';\n",
  'src/engine/screen/screen-view.tsx': 'export const ScreenView = () => null;\n',
  'src/engine/list/list-page.tsx':
    "import { Table } from 'antd';\nimport type { PageModel } from '../../model';\nexport const ListPage = (m: PageModel) => Table(m);\n",
  'src/engine/a.ts': "import type { B } from './b';\nexport type A = B[];\nexport const a = 1;\n",
  'src/engine/b.ts': "import { a } from './a';\nexport type B = typeof a;\n",
  'src/request/index.ts':
    "import { schema } from '@wastegen/model';\nimport { day } from '../shared/format';\nexport const http = { schema, day };\n",
  'src/session/session-store.ts': "import { http } from '../request';\nexport const session = http;\n",
  'src/pages/orders/order-page.tsx': [
    "import { ListPage } from '../../engine';",
    "import { schema } from '../../model/index.js';",
    "import { http } from '../../request';",
    'export const OrderPage = () => [ListPage, schema, http];',
    '',
  ].join('\n'),
  // the engine's second door, the big screen's renderer alone
  'src/pages/viewer-page.tsx': "import { ScreenView } from '../engine/viewer';\nexport const ViewerPage = ScreenView;\n",
  'src/shell/layout.tsx': "import { OrderPage } from '../pages/orders/order-page';\nexport const Layout = OrderPage;\n",
  'src/app/router.tsx':
    "import { Layout } from '../shell/layout';\nimport { routes } from '../../generated/routes';\nexport const router = [Layout, routes];\n",
  'generated/routes.ts': "export const routes = () => import('./views/1/page');\n",
  'generated/views/1/page.tsx':
    "import { ListPage } from '@wastegen/engine';\nimport type { PageModel } from '@wastegen/model';\nexport const page: PageModel = { id: ListPage.length };\n",
  'server/routes/orders.ts':
    "import Fastify from 'fastify';\nimport { schema } from '../../src/model/index.js';\nimport { day } from '../../src/shared/format.js';\nexport const app = [Fastify, schema, day];\n",
  'cli/commands/check.ts':
    "import { Command } from 'commander';\nimport { schema } from '../../src/model/index.js';\nexport const check = [Command, schema];\n",
};

describe('import boundaries (npm run lint)', () => {
  it('is a step of npm run lint', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.lint).toContain('node scripts/check-boundaries.mjs');
  });

  it(
    'passes on this project',
    () => {
      const r = check(ROOT);
      expect(r.problems).toEqual([]);
      expect(r.out).toContain('import boundaries: ok');
      expect(r.status).toBe(0);
    },
    SLOW,
  );

  it(
    'passes on imports every layer may make, a cycle of types only among them',
    () => {
      const r = check(tree('lawful', LAWFUL));
      expect(r.problems).toEqual([]);
      expect(r.status).toBe(0);
    },
    SLOW,
  );

  it(
    'fails on one planted crossing of each kind, naming the file, the line and what it imports',
    () => {
      const root = tree('planted', {
        ...LAWFUL,
        // src/shared → the app
        'src/shared/site.ts': "import { session } from '../session/session-store';\nexport const site = session;\n",
        // cli → pages
        'cli/commands/check.ts':
          "import { Command } from 'commander';\nimport { OrderPage } from '../../src/pages/orders/order-page';\nexport const check = [Command, OrderPage];\n",
        // model → react, model → node:fs
        'src/model/types.ts': "import type { ReactNode } from 'react';\nexport type PageModel = { id: number; title: ReactNode };\n",
        'src/model/files.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
        // request → shell
        'src/request/index.ts':
          "import { schema } from '@wastegen/model';\nimport { tagsStore } from '../shell/tags-store';\nexport const http = { schema, tagsStore };\n",
        // pages → shell, and past the engine's and the model's index
        'src/pages/orders/order-page.tsx': [
          "import { ListPage } from '../../engine/list/list-page';",
          "import { schema } from '@wastegen/model/schema';",
          "import { http } from '../../request';",
          "import { tagsStore } from '../../shell/tags-store';",
          'export const OrderPage = () => [ListPage, schema, http, tagsStore];',
          '',
        ].join('\n'),
        // past the viewer's door into the renderer's folder
        'src/pages/viewer-page.tsx': "import { ScreenView } from '../engine/screen/screen-view';\nexport const ViewerPage = ScreenView;\n",
        // a package a layer may not use: react on the server, node:path in the engine
        'server/routes/orders.ts':
          "import { Table } from 'antd';\nimport { schema } from '../../src/model/index.js';\nexport const app = [Table, schema];\n",
        'src/engine/form/form-page.tsx': [
          "import { join } from 'node:path';",
          "import type { PageModel } from '../../model/types';",
          'export const FormPage = (m: PageModel) => join(String(m.id));',
          '',
        ].join('\n'),
        // a cycle of value imports
        'src/engine/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
        'src/engine/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
        // a folder no layer owns
        'src/widgets/chip.ts': 'export const chip = 1;\n',
      });
      const r = check(root);
      expect(r.status).toBe(1);
      expect(r.problems.sort()).toEqual(
        [
          'src/shared/site.ts:1: shared may not import ../session/session-store (platform)',
          'cli/commands/check.ts:2: cli may not import ../../src/pages/orders/order-page (pages)',
          'src/model/types.ts:1: model may not use the package react',
          'src/model/files.ts:1: model may not use the package node:fs',
          'src/request/index.ts:2: platform may not import ../shell/tags-store (shell)',
          'src/pages/orders/order-page.tsx:4: pages may not import ../../shell/tags-store (shell)',
          'src/pages/orders/order-page.tsx:1: pages must import the engine through its index, not ../../engine/list/list-page',
          'src/pages/orders/order-page.tsx:2: pages must import the model through its index, not @wastegen/model/schema',
          'src/engine/form/form-page.tsx:2: engine must import the model through its index, not ../../model/types',
          'src/pages/viewer-page.tsx:1: pages must import the engine through its index, not ../engine/screen/screen-view',
          'server/routes/orders.ts:1: server may not use the package antd',
          'src/engine/form/form-page.tsx:1: engine may not use the package node:path',
          'import cycle: src/engine/a.ts → src/engine/b.ts → src/engine/a.ts',
          'src/widgets/chip.ts:1: src/widgets belongs to no layer',
        ].sort(),
      );
      expect(r.out).toContain('14 imports break the layers');
    },
    SLOW,
  );

  it(
    'prints the whole cycle, through every file on it',
    () => {
      const root = tree('cycle', {
        'src/pages/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
        'src/pages/b.ts': "export { c as b } from './c';\n",
        'src/pages/c.ts': "import { a } from './a.js';\nexport const c = () => a;\n",
      });
      const r = check(root);
      expect(r.status).toBe(1);
      expect(r.problems).toEqual(['import cycle: src/pages/a.ts → src/pages/b.ts → src/pages/c.ts → src/pages/a.ts']);
    },
    SLOW,
  );

  it(
    'reads generated pages through the aliases only: a relative path into the engine crosses',
    () => {
      const root = tree('relative', {
        'generated/views/1/page.tsx': "import { ListPage } from '../../../src/engine';\nimport { http } from '../../../src/request';\n",
        'src/engine/index.ts': 'export const ListPage = 1;\n',
      });
      const r = check(root);
      expect(r.status).toBe(1);
      expect(r.problems).toEqual([
        'generated/views/1/page.tsx:1: generated may not import ../../../src/engine: only through @wastegen/model or @wastegen/engine',
        'generated/views/1/page.tsx:2: generated may not import ../../../src/request (platform)',
      ]);
    },
    SLOW,
  );
});
