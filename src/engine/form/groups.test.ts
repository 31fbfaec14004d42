import { describe, expect, it } from 'vitest';
import type { FieldModel, FormModel } from '../../model';
import { groupStarts } from './groups';

const base = { dataType: 'varchar', show: 1, required: false, disabled: false, editLock: false } as const;
const f = (name: string, rest: Partial<FieldModel> = {}): FieldModel =>
  ({ ...base, name, label: name, kind: 'text', ...rest }) as FieldModel;
const formOf = (fields: FieldModel[], dividers: string[] = []): FormModel => ({
  fields,
  dividers: dividers.map((before) => ({ before, title: before })),
  dialog: { width: 400, labelWidth: 80, inline: true, key: 'id', initGroovy: false },
});
const half = (field: FieldModel) => (field.kind === 'editor' ? 24 : 12);
const names = (n: number, from = 0) => Array.from({ length: n }, (_, i) => f(`f${from + i}`));

/**
 * The lines one flex-wrap Row of the drawn items makes (md screens): each item's index in
 * `form.fields`, -1 for a divider.
 */
function rowLines(form: FormModel, hidden: Set<string>, from = 0, to = form.fields.length): number[][] {
  const dividers = new Set(form.dividers.map((d) => d.before));
  const lines: number[][] = [];
  let used = 24;
  const put = (item: number, width: number) => {
    if (used + width > 24) {
      lines.push([]);
      used = 0;
    }
    lines.at(-1)?.push(item);
    used += width;
  };
  for (let i = from; i < to; i++) {
    const field = form.fields[i] as FieldModel;
    if (dividers.has(field.name)) put(-1, 24);
    if (field.show === 2 || field.show === 4 || hidden.has(field.name)) continue;
    put(i, half(field));
  }
  return lines;
}

/** The groups' lines, each group a Row of its own, equal one Row's. */
function expectSameLines(form: FormModel, hidden: Set<string>, size: number) {
  const starts = groupStarts(form, half, size);
  const ends = [...starts.slice(1), form.fields.length];
  const grouped = starts.flatMap((start, g) => rowLines(form, hidden, start, ends[g]));
  expect(grouped).toEqual(rowLines(form, hidden));
  return starts;
}

describe('groupStarts', () => {
  it('cuts a form of half-width fields every `size` fields, at line starts', () => {
    const form = formOf(names(40));
    expect(groupStarts(form, half, 8)).toEqual([0, 8, 16, 24, 32]);
    expect(groupStarts(form, half, 7)).toEqual([0, 8, 16, 24, 32]);
    expectSameLines(form, new Set(), 7);
  });

  it('never cuts after a field a relation may hide until a line certainly starts', () => {
    const fields = names(40);
    fields[0] = f('f0', { kind: 'dict', showRelation: { fields: ['f3'], value: '1' } });
    fields[20] = f('f20', { kind: 'editor' });
    const form = formOf(fields, ['f30']);
    const starts = groupStarts(form, half, 4);
    // f3 may be hidden: the lines after it are unknown up to the editor (f20), then the divider.
    expect(starts).toEqual([0, 20, 25, 29, 34, 38]);
    for (const hidden of [new Set<string>(), new Set(['f3'])]) expectSameLines(form, hidden, 4);
  });

  it('skips fields never drawn and keeps the lines whatever the relations hide', () => {
    const fields = names(60).map((field, i) =>
      i % 7 === 3 ? f(field.name, { show: i % 2 ? 2 : 4 }) : i % 11 === 5 ? f(field.name, { kind: 'editor' }) : field,
    );
    fields[12] = f('f12', { kind: 'dict', showRelation: { fields: ['f13', 'f40', 'f44'], value: '1' } });
    const form = formOf(fields, ['f0', 'f25', 'f26', 'f51']);
    for (const size of [1, 2, 3, 5, 8])
      for (const hidden of [new Set<string>(), new Set(['f13']), new Set(['f13', 'f40', 'f44']), new Set(['f44'])])
        expectSameLines(form, hidden, size);
  });

  it('cuts anywhere when every field is a line of its own', () => {
    const form = { ...formOf(names(10)), dialog: { ...formOf([]).dialog, inline: false } };
    expect(groupStarts(form, () => 24, 3)).toEqual([0, 3, 6, 9]);
  });
});
