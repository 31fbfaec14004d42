import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeDefinition, definitionHash } from '../../model';
import type { GeneratedRoute } from '../routes';
import { resolveDefinition, resolveView, titleOf } from './resolve';

const stockIn = JSON.parse(readFileSync(new URL('../../../definitions/views/12-stock-in.json', import.meta.url), 'utf8')) as Record<
  string,
  any
>;
/** As the server sends it: disTemplate and disMenu as JSON text, timestamps of its own. */
const wire = (def: Record<string, any>) => ({
  ...def,
  disTemplate: JSON.stringify(def.disTemplate),
  disMenu: JSON.stringify(def.disMenu),
  updateTime: '2026-11-21 10:00:00',
});

/** The build's page for view 12, generated from the definition file (the engine does not read generated/). */
const generatedRoutes: GeneratedRoute[] = [
  {
    path: '/dev-tools/temp/page/stockIn/12',
    kind: 'view',
    id: 12,
    title: '危废入库',
    hash: definitionHash(decodeDefinition(stockIn)),
    status: 1,
    load: () => Promise.reject(new Error('not loaded in this test')),
  },
];

describe('generated or runtime', () => {
  it('uses the generated page when its hash equals the fetched definition', () => {
    const r = resolveDefinition('view', wire(stockIn), { routes: generatedRoutes });
    expect(r.kind).toBe('generated');
    if (r.kind === 'generated') expect(r.route.path).toBe('/dev-tools/temp/page/stockIn/12');
    expect(titleOf(r, wire(stockIn))).toBe('危废入库');
  });

  it('renders at run time when the definition changed, or has no generated page, or run time is asked for', () => {
    const changed = structuredClone(stockIn);
    changed.disTemplate.tableOption[0].chName = '入库单编号';
    const r = resolveView(wire(changed), { routes: generatedRoutes });
    expect(r).toMatchObject({ kind: 'runtime', reason: 'hash-differs' });
    if (r.kind === 'runtime') {
      expect(r.page.columns[0]?.label).toBe('入库单编号');
      expect(r.schema.safeParse({}).success).toBe(false);
      expect(titleOf(r, wire(changed))).toBe('危废入库');
    }
    expect(resolveView(wire(stockIn), { routes: [] })).toMatchObject({ kind: 'runtime', reason: 'no-generated-page' });
    expect(resolveView(wire(stockIn))).toMatchObject({ kind: 'runtime', reason: 'no-generated-page' });
    expect(resolveView(wire(stockIn), { routes: generatedRoutes, runtimeOnly: true })).toMatchObject({
      kind: 'runtime',
      reason: 'runtime-only',
    });
  });

  it('lists the problems of a definition that fails validation with their pointers', () => {
    const broken = structuredClone(stockIn);
    broken.disTemplate.formOption[4].configure.min = 'abc';
    broken.disMenu = {};
    const r = resolveDefinition('view', wire(broken), { routes: generatedRoutes });
    expect(r.kind).toBe('invalid');
    if (r.kind === 'invalid') {
      const pointers = r.problems.map((p) => p.pointer);
      expect(pointers).toContain('/disTemplate/formOption/4/configure/min');
      expect(pointers).toContain('/disMenu/componentName');
    }
    expect(resolveDefinition('view', 'not json').kind).toBe('invalid');
    const undesigned = { ...wire(stockIn), disTemplate: '' };
    const u = resolveDefinition('view', undesigned);
    expect(u).toMatchObject({ kind: 'undesigned' });
    // A definition that draws no page still names it.
    expect(titleOf(u, undesigned)).toBe(stockIn.name);
  });
});
