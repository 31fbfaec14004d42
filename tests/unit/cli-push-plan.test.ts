import { describe, expect, it } from 'vitest';
import { type LocalDefinition, localReferenceProblems, planPush, stepsOf, viewForTarget } from '../../cli/push.js';
import type { RemoteDefinition } from '../../cli/remote.js';

/**
 * How push carries a view's pickers across servers: a field whose options come from another view names
 * it by id (`/api/general/allList/{id}/queryLink`), and the target gives that view another id.
 */

const picker = (viewId: number, i: number) => ({
  name: `pick${i}`,
  chName: '选择',
  dataType: 'long',
  configure: { sportData: true, sportData_type: 'list', sportData_url: `/api/general/allList/${viewId}/queryLink` },
});

function view(id: number, componentName: string, picks: number[] = []): LocalDefinition {
  const fields = [{ name: 'title', chName: '标题', dataType: 'varchar', configure: {} }, ...picks.map(picker)];
  return {
    kind: 'view',
    file: `definitions/views/${id}-${componentName}.json`,
    id,
    key: `view ${componentName}`,
    json: { id, name: componentName, status: 1, disMenu: { componentName }, disTemplate: { tableOption: fields, formOption: fields } },
  };
}

function remote(local: LocalDefinition, id: number): RemoteDefinition {
  const json = { ...(viewForTarget(local, { view: () => undefined, dataView: () => undefined }, (x) => x) as object), id };
  return {
    kind: 'view',
    id,
    name: String(local.json.name),
    rel: `views/${id}.json`,
    json: json as Record<string, unknown>,
    text: '',
    undesigned: false,
    version: 1,
  } as RemoteDefinition;
}

const plan = (defs: LocalDefinition[], target: RemoteDefinition[] = []) => planPush(defs, target, [], [], { publish: true, prune: false });

describe('push: the views a view picks from', () => {
  it('names them by their ids on the target, so an unchanged view is unchanged', () => {
    const order = view(19, 'disposalOrder');
    const waybill = view(20, 'logisticsOrder', [19]);
    // On the target the order is view 7, and the waybill already picks from it.
    const targetOrder = remote(order, 7);
    const targetWaybill = remote(view(20, 'logisticsOrder', [7]), 8);
    const p = plan([order, waybill], [targetOrder, targetWaybill]);
    expect(p.problems).toEqual([]);
    expect(p.entries).toEqual([]);
    expect(p.unchanged).toBe(2);
    // One picking from the order's source id would change: the plan shows the target's id.
    const stale = remote(view(20, 'logisticsOrder', [19]), 8);
    const q = plan([order, waybill], [targetOrder, stale]);
    expect(JSON.stringify(q.entries[0]?.after)).toContain('/api/general/allList/7/queryLink');
  });

  it('creates the views picked from first, and saves views picking from each other again once both exist', () => {
    const a = view(1, 'aaa', [3]);
    const b = view(2, 'bbb', [2]);
    const c = view(3, 'ccc', [1]);
    const d = view(4, 'ddd');
    const p = plan([a, b, c, d]);
    const steps = stepsOf(p, { publish: false, prune: false }).map((s) => `${s.op} ${s.key}`);
    // ccc picks from aaa and aaa from ccc: one of them is created first and saved again at the end.
    expect(steps).toEqual(['create view ccc', 'create view aaa', 'create view bbb', 'create view ddd', 'update view ccc']);
    // Before the target has ids, the plan shows where they go.
    expect(JSON.stringify(p.entries.find((e) => e.key === 'view aaa')?.after)).toContain('(new id of view 3)');
  });

  it('deletes a view before the views it picks from (the server keeps a view a waybill picker names)', () => {
    const order = remote(view(19, 'disposalOrder'), 7);
    const waybill = remote(view(20, 'logisticsOrder', [7]), 8);
    const other = remote(view(21, 'vehicle'), 9);
    const p = planPush([], [order, waybill, other], [], [], { publish: false, prune: true });
    expect(stepsOf(p, { publish: false, prune: true }).map((s) => `${s.op} ${s.key}`)).toEqual([
      'delete view logisticsOrder',
      'delete view vehicle',
      'delete view disposalOrder',
    ]);
  });

  it('refuses, before any call, a picker whose view is not among the definitions', () => {
    const waybill = view(20, 'logisticsOrder', [19]);
    const problems = localReferenceProblems([waybill], []);
    expect(problems).toEqual([
      expect.objectContaining({
        file: 'definitions/views/20-logisticsOrder.json',
        pointer: '/disTemplate/tableOption/1/configure/sportData_url',
        code: 'E_REFERENCE',
      }),
      expect.objectContaining({ pointer: '/disTemplate/formOption/1/configure/sportData_url' }),
    ]);
    expect(localReferenceProblems([waybill, view(19, 'disposalOrder')], [])).toEqual([]);
  });
});
