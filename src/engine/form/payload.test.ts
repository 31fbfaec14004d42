import { describe, expect, it } from 'vitest';
import type { FieldModel, FormModel } from '../../model';
import { buildSchema } from '../../model';
import { buildPayload, editableValues, fieldStates, formatDateTime } from './payload';
import { fieldErrors } from './resolver';

const base = { dataType: 'varchar', show: 1, required: false, disabled: false, editLock: false } as const;
const f = (name: string, rest: Partial<FieldModel> = {}): FieldModel =>
  ({ ...base, name, label: name, kind: 'text', ...rest }) as FieldModel;

const form: FormModel = {
  fields: [
    f('title', { label: '标题', required: true, maxLength: 255 }),
    f('kind', { kind: 'dict', dict: 'kind', showRelation: { fields: ['extra'], value: '2' } }),
    f('extra', { label: '附加', required: true, maxLength: 255 }),
    f('shown', { show: 3 }),
    f('secret', { show: 4 }),
    f('kept', { show: 2, defaultValue: 'k' }),
    f('when', { dataType: 'datetime', kind: 'datetime', timeFormat: 'YYYY-MM-DD HH:mm:ss' }),
    f('day', { dataType: 'datetime', kind: 'datetime', timeFormat: 'YYYY-MM-DD' }),
    f('region', { kind: 'city' }),
    f('photos', { kind: 'image', upload: { image: true, accept: ['jpg', 'png'], maxCount: 2 } }),
    f('amount', { dataType: 'decimal', kind: 'decimal', decimals: 2, step: 0.01 }),
    f('tags', { kind: 'remote', remote: { url: '/api/tags', tree: false, multiple: true, params: [] } }),
  ],
  dividers: [],
  dialog: { width: 400, labelWidth: 80, inline: false, key: 'id', initGroovy: false },
};
const schema = buildSchema(form);

function payloadOf(raw: Record<string, unknown>, options: Parameters<typeof buildPayload>[3] = {}) {
  const r = fieldErrors(schema, raw);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return buildPayload(form, r.data, raw, options);
}

describe('editableValues', () => {
  it('puts a record into the shapes the controls edit', () => {
    const v = editableValues(form, 'edit', {
      id: 7,
      title: 'T',
      when: '2026-01-05T09:00:00',
      day: '2026-01-05 00:00:00',
      region: ['310000', '310100'],
      regionFmt: '上海市/市辖区',
      photos: '2026/01/a.png,2026/01/b.png',
      amount: '12.50',
      tags: '1,2',
      kind: 2,
    });
    expect(v).toMatchObject({
      id: 7,
      title: 'T',
      when: '2026-01-05 09:00:00',
      day: '2026-01-05',
      region: '310000,310100',
      regionFmt: '上海市/市辖区',
      amount: 12.5,
      tags: ['1', '2'],
      kind: '2',
      kept: null,
    });
    expect(JSON.parse(String(v.photos))).toEqual([
      { fileName: 'a.png', filePath: '2026/01/a.png' },
      { fileName: 'b.png', filePath: '2026/01/b.png' },
    ]);
  });

  it('fills defaultValue in add mode only, and never over an initial value', () => {
    expect(editableValues(form, 'add').kept).toBe('k');
    expect(editableValues(form, 'add', { kept: 'x' }).kept).toBe('x');
    expect(editableValues(form, 'edit', {}).kept).toBeNull();
    expect(editableValues(form, 'add').tags).toEqual([]);
  });

  it('keeps a datetime it cannot read rather than dropping it', () => {
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatDateTime('')).toBeNull();
    expect(formatDateTime(Date.UTC(2026, 0, 5), 'YYYY')).toBe('2026');
  });
});

describe('buildPayload', () => {
  const raw = {
    title: 'T',
    kind: '1',
    extra: 'hidden while kind is not 2',
    shown: 'read-only',
    secret: 's',
    kept: 'k',
    when: '2026-01-05 09:00:00',
    day: '2026-01-05',
    region: '310000,310100,310101',
    regionFmt: 'stale',
    photos: JSON.stringify([{ fileName: 'a.png', filePath: '2026/01/a.png', columnName: 'photos' }]),
    amount: 3.5,
    tags: ['1', '2'],
  };

  it('drops show 3 and 4 and relation-hidden fields, keeps show 2, and merges fixedValues last', () => {
    const p = payloadOf(raw, { fixedValues: { id: 5, companyId: 3 } });
    expect(p).not.toHaveProperty('shown');
    expect(p).not.toHaveProperty('secret');
    expect(p).not.toHaveProperty('extra');
    expect(p).toMatchObject({ title: 'T', kept: 'k', id: 5, companyId: 3, amount: 3.5, tags: '1,2' });
  });

  it('submits a relation-shown field, and requires it while shown', () => {
    expect(payloadOf({ ...raw, kind: '2' }).extra).toBe('hidden while kind is not 2');
    expect(fieldErrors(schema, { ...raw, kind: '2', extra: '' })).toEqual({ ok: false, errors: { extra: '请输入附加' } });
  });

  it('formats datetimes, sends files as JSON text and a city as codes plus Fmt from the tree', () => {
    const p = payloadOf(raw, { cityLabels: (codes) => (codes.length === 3 ? ['上海市', '市辖区', '黄浦区'] : undefined) });
    expect(p.when).toBe('2026-01-05 09:00:00');
    expect(p.day).toBe('2026-01-05');
    expect(p.region).toBe('310000,310100,310101');
    expect(p.regionFmt).toBe('上海市/市辖区/黄浦区');
    expect(JSON.parse(String(p.photos))).toEqual([{ fileName: 'a.png', filePath: '2026/01/a.png', columnName: 'photos' }]);
  });

  it('falls back to the value beside the city when the tree is not there, and sends null for empties', () => {
    expect(payloadOf(raw).regionFmt).toBe('stale');
    const empty = payloadOf({ ...raw, region: null, when: '', photos: '[]', amount: null });
    expect(empty).toMatchObject({ region: null, regionFmt: null, when: null, photos: null, amount: null });
  });

  it('never sends the form-only keys the record came with', () => {
    const p = payloadOf({ ...raw, createTime: '2026-01-01 00:00:00', unknown: 1 });
    expect(p).not.toHaveProperty('createTime');
    expect(p).not.toHaveProperty('unknown');
  });
});

describe('fieldStates', () => {
  it('hides show 2 and 4 and relation-hidden fields; show 3, look and editLock on edit are read-only', () => {
    const locked: FormModel = { ...form, fields: [...form.fields, f('code', { editLock: true, required: true })] };
    const add = fieldStates(locked, 'add', { kind: '1' });
    expect(add.get('kept')).toMatchObject({ hidden: true });
    expect(add.get('secret')).toMatchObject({ hidden: true });
    expect(add.get('extra')).toMatchObject({ hidden: true });
    expect(add.get('shown')).toMatchObject({ hidden: false, readOnly: true, required: false });
    expect(add.get('code')).toMatchObject({ readOnly: false, required: true });
    expect(fieldStates(locked, 'edit', {}).get('code')).toMatchObject({ readOnly: true });
    expect(fieldStates(locked, 'add', { kind: '2' }).get('extra')).toMatchObject({ hidden: false, required: true });
    expect(fieldStates(locked, 'look', { kind: '2' }).get('title')).toMatchObject({ readOnly: true, required: false });
  });

  it('draws a show 2 field while a long dictionary trigger holds the value, and hides it otherwise', () => {
    const relation: FormModel = {
      ...form,
      fields: [
        f('level', { dataType: 'long', kind: 'dict', dict: 'level', showRelation: { fields: ['reason'], value: '1' } }),
        f('reason', { label: '原因', show: 2, required: true, maxLength: 255 }),
      ],
    };
    expect(fieldStates(relation, 'add', { level: '1' }).get('reason')).toEqual({ hidden: false, readOnly: false, required: true });
    expect(fieldStates(relation, 'edit', { level: 1 }).get('reason')).toMatchObject({ hidden: false, readOnly: false });
    expect(fieldStates(relation, 'look', { level: 1 }).get('reason')).toMatchObject({ hidden: false, readOnly: true, required: false });
    expect(fieldStates(relation, 'add', { level: '2' }).get('reason')).toMatchObject({ hidden: true });
    expect(fieldStates(relation, 'add', {}).get('reason')).toMatchObject({ hidden: true });
    const schema = buildSchema(relation);
    const shown = fieldErrors(schema, { level: '1', reason: '' });
    expect(shown.ok ? {} : shown.errors).toEqual({ reason: '请输入原因' });
    const hidden = fieldErrors(schema, { level: '2', reason: '' });
    expect(hidden.ok && buildPayload(relation, hidden.data, { level: '2', reason: 'x' })).toEqual({ level: '2' });
  });
});

describe('buildPayload with writable', () => {
  it('leaves out what the user may not change of the record, keeping the key', () => {
    const raw = { title: '标题', kind: '1', amount: 3, when: '2026-01-01 08:00:00' };
    expect(payloadOf(raw, { writable: ['amount'], fixedValues: { id: 7 } })).toEqual({ amount: 3, id: 7 });
    expect(payloadOf(raw, { writable: [], fixedValues: { id: 7 } })).toEqual({ id: 7 });
  });
});
