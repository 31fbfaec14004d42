import { describe, expect, it } from 'vitest';
import {
  type DesignDoc,
  diagnose,
  errorsOf,
  formKeysOf,
  kindOf,
  moveItem,
  placeOf,
  problemsAt,
  tableKeysOf,
  templateOf,
  templateText,
  withKind,
  withList,
} from './designer-model';

const field = (name: string, sort: number, extra: Record<string, unknown> = {}, dataType = 'varchar') => ({
  name,
  chName: name.toUpperCase(),
  dataType,
  linked: false,
  configure: { sort, show: 1, ...extra },
});

const doc = (template: unknown, componentName = 'probe'): DesignDoc => ({
  id: 7,
  name: '探针',
  menu: { componentName, name: '探针' },
  template: templateOf(template),
});

describe('the designer document', () => {
  it('reads lists given as {items} and orders them by configure.sort, keeping unknown keys', () => {
    const t = templateOf(JSON.stringify({ tableOption: { items: [field('b', 2), field('a', 1)] }, custom: { x: 1 } }));
    expect(t.tableOption.map((f) => f.name)).toEqual(['a', 'b']);
    expect(t.custom).toEqual({ x: 1 });
    expect(t.formOption).toBeUndefined();
    expect(JSON.parse(templateText(t))).not.toHaveProperty('formOption');
  });

  it('moves a field and renumbers configure.sort so the saved order is the one shown', () => {
    const list = [field('a', 1), field('b', 2), field('c', 3)];
    const moved = moveItem(list, 2, 0);
    expect(moved.map((f) => [f.name, (f.configure as { sort: number }).sort])).toEqual([
      ['c', 1],
      ['a', 2],
      ['b', 3],
    ]);
    expect(moveItem(list, 0, 5)).toEqual(list);
  });

  it('turns a field into another kind by the one key that makes it, and offers only the keys that apply', () => {
    const f = field('f', 1, { dict: 'status', textarea: true });
    expect(kindOf(f)).toBe('dict');
    const n = withKind(f, 'decimal');
    expect(kindOf(n)).toBe('decimal');
    expect(n.dataType).toBe('decimal');
    expect(n.configure).not.toHaveProperty('dict');
    expect(n.configure).not.toHaveProperty('textarea');
    // A dictionary field stays one while its dictionary is not picked yet.
    expect(kindOf(withKind(field('g', 1), 'dict'))).toBe('dict');
    expect(kindOf(withKind(field('g', 1), 'image'))).toBe('image');
    expect(formKeysOf('decimal')).toEqual(expect.arrayContaining(['min', 'max', 'decimals', 'required']));
    expect(formKeysOf('text')).not.toContain('decimals');
    expect(formKeysOf('remote')).toContain('sportData_url');
    expect(tableKeysOf('dict')).toContain('tags');
    expect(tableKeysOf('text')).not.toContain('tags');
  });

  it('finds the same problems as wastegen check, at the pointers of the controls', () => {
    const problems = diagnose(
      doc({
        tableOption: [
          field('amount', 1, { min: '10', max: '1' }, 'decimal'),
          field('mobile', 2, { validator: 'nope' }),
          field('amount', 3),
        ],
        basicOption: { sortName: 'missing' },
      }),
    );
    const codes = errorsOf(problems).map((p) => [p.code, p.pointer]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ['E_RANGE', '/disTemplate/tableOption/0/configure/min'],
        ['E_VALIDATOR', '/disTemplate/tableOption/1/configure/validator'],
        ['E_DUPLICATE', '/disTemplate/tableOption/2/name'],
        ['E_REFERENCE', '/disTemplate/basicOption/sortName'],
      ]),
    );
    expect(problems.every((p) => p.file === 'definitions/views/7-probe.json')).toBe(true);
    expect(problemsAt(problems, '/disTemplate/tableOption/1').map((p) => p.code)).toEqual(['E_VALIDATOR']);
    expect(placeOf('/disTemplate/tableOption/1/configure/validator')).toEqual({ tab: 'table', row: 1, key: 'validator' });
    expect(placeOf('/disMenu/componentName')).toEqual({ tab: 'basic', key: 'componentName' });
  });

  it('has no errors for a clean view and needs a component name', () => {
    expect(errorsOf(diagnose(doc({ tableOption: [field('title', 1)] })))).toEqual([]);
    expect(errorsOf(diagnose(doc({ tableOption: [field('title', 1)] }, ''))).map((p) => p.pointer)).toEqual(['/disMenu/componentName']);
  });
});

describe('relabelling a field', () => {
  const base = {
    basicOption: {},
    dialogOption: {},
    formDividerOption: [],
    btnDIYOption: [],
    tableOption: [
      { name: 'a', chName: '甲' },
      { name: 'b', chName: '乙' },
    ],
    formOption: [
      { name: 'a', chName: '甲' },
      { name: 'b', chName: '表单乙' },
    ],
  };

  it("relabels the same field in the form's list when it bore the old label, and keeps a label set apart", () => {
    const next = withList(base, 'tableOption', [
      { name: 'a', chName: '甲名' },
      { name: 'b', chName: '乙名' },
    ]);
    expect(next.formOption).toEqual([
      { name: 'a', chName: '甲名' },
      { name: 'b', chName: '表单乙' },
    ]);
    // And the other way round.
    const back = withList(next, 'formOption', [
      { name: 'a', chName: '甲' },
      { name: 'b', chName: '表单乙' },
    ]);
    expect(back.tableOption).toEqual([
      { name: 'a', chName: '甲' },
      { name: 'b', chName: '乙名' },
    ]);
  });

  it('changes nothing else: a template without a form list, or another list', () => {
    const { formOption: _, ...tableOnly } = base;
    expect(withList(tableOnly, 'tableOption', [{ name: 'a', chName: '新' }]).formOption).toBeUndefined();
    expect(withList(base, 'btnDIYOption', [{ name: 'x' }]).formOption).toBe(base.formOption);
  });
});
