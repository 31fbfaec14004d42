import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeDefinition } from '../../model/index.js';
import { historyOf, record, redo, seal, undo } from './history';
import {
  addChart,
  addContainer,
  checkTemplate,
  moveChart,
  nudge,
  placeCells,
  pointerOfPath,
  removeChart,
  setIn,
  templateOf,
} from './template';

const screen = { id: 5, name: '测试大屏', type: 2, status: 1 };

describe('designer template', () => {
  it('reads stored text, fills the canvas defaults and keeps unknown keys', () => {
    const t = templateOf(JSON.stringify({ extra: 1, canvasConfigure: { basic: { width: 1280 } }, layout: [{ i: 'a', chart: [] }] }));
    expect(t.extra).toBe(1);
    expect(t.canvasConfigure.basic.width).toBe(1280);
    expect(t.canvasConfigure.basic.defaultCol).toBe(24);
    expect(t.layout[0]?.w).toBe(6);
    expect(templateOf('').layout).toEqual([]);
    expect(templateOf('{not json').layout).toEqual([]);
  });

  it('places a new container in the first gap, then below', () => {
    let t = templateOf({});
    const a = addContainer(t);
    t = a.template;
    expect(t.layout[0]).toMatchObject({ i: 'c1', x: 0, y: 0, w: 6, h: 18 });
    t = addContainer(t).template;
    expect(t.layout[1]).toMatchObject({ i: 'c2', x: 6, y: 0 });
    t = placeCells(t, [
      { i: 'c1', x: 0, y: 0, w: 24, h: 18 },
      { i: 'c2', x: 0, y: 18, w: 6, h: 18 },
    ]);
    t = addContainer(t).template;
    expect(t.layout[2]).toMatchObject({ i: 'c3', x: 6, y: 18 });
  });

  it('adds, orders and removes charts, sharing what it did not touch', () => {
    let t = addContainer(addContainer(templateOf({})).template).template;
    const untouched = t.layout[1];
    t = addChart(t, 'c1', 'pie');
    t = addChart(t, 'c1', 'lineBar');
    expect(t.layout[1]).toBe(untouched);
    expect(t.layout[0]?.chart.map((c) => c.fileName)).toEqual(['pie', 'lineBar']);
    t = moveChart(t, 'c1', 1, -1);
    expect(t.layout[0]?.chart.map((c) => [c.fileName, c.chartIndex])).toEqual([
      ['lineBar', 0],
      ['pie', 1],
    ]);
    expect(moveChart(t, 'c1', 0, -1)).toBe(t);
    t = removeChart(t, 'c1', 0);
    expect(t.layout[0]?.chart.map((c) => [c.fileName, c.chartIndex])).toEqual([['pie', 0]]);
  });

  it('nudges inside the columns', () => {
    let t = addContainer(templateOf({})).template;
    t = nudge(t, 'c1', -5, -1);
    expect(t.layout[0]).toMatchObject({ x: 0, y: 0 });
    t = nudge(t, 'c1', 30, 5);
    expect(t.layout[0]).toMatchObject({ x: 18, y: 5 });
  });

  it('keeps containers on the canvas: nudges stop at the last row, a new one takes no place below it', () => {
    let t = addContainer(templateOf({})).template;
    t = nudge(t, 'c1', 0, 100);
    // 36 rows (twice the default height 18): a container 18 high ends on the last one.
    expect(t.layout[0]).toMatchObject({ y: 18, h: 18 });
    expect(checkTemplate(screen, t).problems).toEqual([]);
    t = placeCells(t, [{ i: 'c1', x: 0, y: 0, w: 24, h: 18 }]);
    t = addContainer(t).template;
    expect(t.layout[1]).toMatchObject({ x: 0, y: 18 });
  });

  it('lists a container below the canvas as an error at its row, or its height when it is taller than the canvas', () => {
    let t = addContainer(addContainer(templateOf({})).template).template;
    t = placeCells(t, [
      { i: 'c1', x: 0, y: 30, w: 6, h: 18 },
      { i: 'c2', x: 6, y: 0, w: 6, h: 40 },
    ]);
    const problems = checkTemplate(screen, t).problems;
    expect(problems.map((p) => [p.code, p.pointer])).toEqual([
      ['E_RANGE', pointerOfPath(['layout', 0, 'y'])],
      ['E_RANGE', pointerOfPath(['layout', 1, 'h'])],
    ]);
    expect(problems[0]?.message).toBe('容器 c1 在第 31–48 行，超出画布底部（共 36 行），超出部分在大屏上不显示');
    expect(problems[1]?.message).toBe('容器 c2 高 40 行，超过画布的 36 行，超出部分在大屏上不显示');
    // A canvas of a larger default height has room for both.
    expect(checkTemplate(screen, setIn(t, ['canvasConfigure', 'basic', 'defaultH'], 24)).problems).toEqual([]);
  });

  it('reports the page model’s problems at the pointer of the control', () => {
    let t = addChart(addContainer(templateOf({})).template, 'c1', 'pie');
    expect(checkTemplate(screen, t).problems).toEqual([]);
    const path = ['layout', 0, 'chart', 0, 'configure', 'private', 'radiusInside'] as const;
    t = setIn(t, path, 80);
    const { problems, model } = checkTemplate(screen, t);
    expect(model?.layout[0]?.charts[0]?.kind).toBe('pie');
    expect(problems.map((p) => p.pointer)).toEqual([pointerOfPath(path)]);
    expect(problems[0]?.message).toMatch(/inner radius 80 exceeds the outer radius 70/);
    t = setIn(t, ['canvasConfigure', 'basic', 'defaultW'], 0);
    expect(checkTemplate(screen, t).problems.map((p) => p.pointer)).toContain('/disTemplate/canvasConfigure/basic/defaultW');
  });

  it('reopens the demo screen without changing what it draws', () => {
    const file = 'definitions/screens/50-big-screen.json';
    const json = JSON.parse(readFileSync(file, 'utf8'));
    const before = normalizeDefinition({ kind: 'screen', file, json });
    const after = normalizeDefinition({ kind: 'screen', file, json: { ...json, disTemplate: templateOf(json.disTemplate) } });
    expect(before.problems).toEqual([]);
    expect(after.problems).toEqual([]);
    expect(after.page).toEqual(before.page);
  });

  it('setIn returns the same object when nothing changes', () => {
    const t = templateOf({});
    expect(setIn(t, ['canvasConfigure', 'basic', 'width'], 1920)).toBe(t);
    expect(setIn(t, ['canvasConfigure', 'basic', 'width'], 1000).canvasConfigure.header).toBe(t.canvasConfigure.header);
  });
});

describe('designer history', () => {
  it('undoes and redoes; a new edit clears redo', () => {
    let h = historyOf(0);
    h = record(h, 1);
    h = record(h, 2);
    h = undo(h);
    expect(h.present).toBe(1);
    h = redo(h);
    expect(h.present).toBe(2);
    h = undo(h);
    h = record(h, 5);
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
    expect(h.past).toEqual([0, 1]);
  });

  it('groups typing in one field into one step until sealed', () => {
    let h = historyOf('');
    for (const v of ['a', 'ab', 'abc']) h = record(h, v, 'title');
    expect(h.past).toEqual(['']);
    h = seal(h);
    h = record(h, 'abcd', 'title');
    expect(h.past).toEqual(['', 'abc']);
    h = record(h, 'x', 'other');
    expect(h.past).toEqual(['', 'abc', 'abcd']);
  });

  it('keeps at most 100 steps', () => {
    let h = historyOf(0);
    for (let n = 1; n <= 150; n++) h = record(h, n);
    expect(h.past.length).toBe(100);
    for (let n = 0; n < 200; n++) h = undo(h);
    expect(h.present).toBe(50);
  });
});
