import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dataTypeOf,
  fieldKind,
  GENERAL_UPLOAD_TYPES,
  IMAGE_UPLOAD_TYPES,
  maxLengthOf,
  type NormalizeResult,
  normalizeAll,
  normalizeColumn,
  normalizeDefinition,
  normalizeField,
  Sink,
  searchKindOf,
  showOf,
  stepOf,
  timeFormatOf,
} from './normalize.js';
import { CODES, type Problem } from './problems.js';
import type {
  BigScreenModel,
  ButtonModel,
  ColumnModel,
  ContainerPageModel,
  DataType,
  FieldKind,
  FieldModel,
  FormPageModel,
  LayoutItemModel,
  ListPageModel,
} from './types.js';
import { type WireFieldConfigure, wireField } from './wire.js';

/**
 * Data fixtures of the normalisation rules ({ name, in, out }), then the rules that are not exported,
 * through normalizeDefinition and normalizeAll, then a fuzz test over a real definition. Problems are
 * asserted as [code, pointer], never by their message.
 */

type ReadField = Parameters<typeof normalizeField>[0];
type Found = [code: string, pointer: string];
/** A field of a definition as it is written (loose values allowed), the input of the field and column rules. */
type RawField = { name: string; chName?: unknown; dataType?: unknown; configure?: unknown };
/** What a field or column rule gives: its model and the problems it reported. */
type Normalized<M> = { model: M; problems: Found[] };

interface Fixture<I, O> {
  name: string;
  in: I;
  out: O;
}

const FILE = 'definitions/views/1-demo.json';
const found = (problems: readonly Problem[]): Found[] =>
  problems.map((p): Found => [p.code, p.pointer]).sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : a.join(' ') > b.join(' ') ? 1 : 0));
const sorted = (list: Found[]): Found[] => found(list.map(([code, pointer]) => ({ code, pointer }) as Problem));

/** A rule that reports through a sink: its value and what it reported. */
function withSink<T>(run: (sink: Sink) => T): { value: T; problems: Found[] } {
  const sink = new Sink(FILE);
  const value = run(sink);
  return { value, problems: found(sink.problems) };
}

/** A rule run with a sink, its value and problems against the fixture's; problems in any order. */
function expectNormalized<M>(run: (sink: Sink) => M, out: Normalized<M>): void {
  const r = withSink(run);
  expect(r.value).toEqual(out.model);
  expect(r.problems).toEqual(sorted(out.problems));
}

/** A field as the parser gives it (loose values coerced), ready for the field and column rules. */
function readField(raw: RawField, pointer = '/disTemplate/formOption/0') {
  const wire = wireField.parse(raw);
  return withSink(
    (sink): ReadField => ({
      raw: wire,
      name: raw.name,
      pointer,
      configure: wire.configure ?? {},
      dataType: dataTypeOf(wire.dataType, sink, `${pointer}/dataType`),
    }),
  ).value;
}

const strip = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** A field model with the defaults of a plain text input; `undefined` removes a key. */
const field = (over: Partial<Record<keyof FieldModel, unknown>> & { name: string }): FieldModel =>
  strip({
    label: over.name,
    dataType: 'varchar',
    kind: 'text',
    show: 1,
    required: false,
    maxLength: 255,
    disabled: false,
    editLock: false,
    ...over,
  } as FieldModel);

const column = (over: Partial<Record<keyof ColumnModel, unknown>> & { name: string }): ColumnModel =>
  strip({
    label: over.name,
    dataType: 'varchar',
    visible: true,
    tags: false,
    sortable: false,
    overflow: false,
    money: false,
    search: false,
    searchKind: 'text',
    ...over,
  } as ColumnModel);

// ----- exported rules -----

describe('dataTypeOf', () => {
  const fixtures: Fixture<string | undefined, { value: DataType; problems: Found[] }>[] = [
    { name: 'varchar', in: 'varchar', out: { value: 'varchar', problems: [] } },
    { name: 'long', in: 'long', out: { value: 'long', problems: [] } },
    { name: 'decimal, any case, padded', in: ' Decimal ', out: { value: 'decimal', problems: [] } },
    { name: 'datetime', in: 'DATETIME', out: { value: 'datetime', problems: [] } },
    { name: 'absent is varchar without a warning', in: undefined, out: { value: 'varchar', problems: [] } },
    { name: 'unknown is varchar with a warning', in: 'int', out: { value: 'varchar', problems: [['W_DATATYPE', '/p']] } },
    { name: 'date is not datetime', in: 'date', out: { value: 'varchar', problems: [['W_DATATYPE', '/p']] } },
  ];
  it.each(fixtures)('$name', ({ in: raw, out }) => {
    expect(withSink((sink) => dataTypeOf(raw, sink, '/p'))).toEqual(out);
  });
});

describe('fieldKind', () => {
  const fixtures: Fixture<{ dataType: DataType; c: WireFieldConfigure }, FieldKind>[] = [
    { name: 'plain varchar', in: { dataType: 'varchar', c: {} }, out: 'text' },
    { name: 'textarea', in: { dataType: 'varchar', c: { textarea: true } }, out: 'textarea' },
    { name: 'long', in: { dataType: 'long', c: {} }, out: 'long' },
    { name: 'decimal', in: { dataType: 'decimal', c: {} }, out: 'decimal' },
    { name: 'datetime', in: { dataType: 'datetime', c: {} }, out: 'datetime' },
    { name: 'a number type wins over textarea', in: { dataType: 'long', c: { textarea: true } }, out: 'long' },
    { name: 'dict wins over the data type', in: { dataType: 'long', c: { dict: 'yesNo' } }, out: 'dict' },
    { name: 'remote wins over dict', in: { dataType: 'varchar', c: { dict: 'yesNo', sportData: true } }, out: 'remote' },
    { name: 'city wins over remote', in: { dataType: 'varchar', c: { sportData: true, city: true } }, out: 'city' },
    { name: 'editor wins over city', in: { dataType: 'varchar', c: { city: true, editor: true } }, out: 'editor' },
    { name: 'file wins over editor', in: { dataType: 'varchar', c: { editor: true, file: 'file' } }, out: 'file' },
    { name: 'image', in: { dataType: 'datetime', c: { file: 'image', dict: 'x' } }, out: 'image' },
    { name: 'false flags do not count', in: { dataType: 'varchar', c: { editor: false, city: false, sportData: false } }, out: 'text' },
  ];
  it.each(fixtures)('$name', ({ in: { dataType, c }, out }) => {
    expect(fieldKind(dataType, c)).toBe(out);
  });
});

describe('showOf', () => {
  const fixtures: Fixture<unknown, { value: number; problems: Found[] }>[] = [
    { name: 'absent', in: undefined, out: { value: 1, problems: [] } },
    { name: 'null', in: null, out: { value: 1, problems: [] } },
    { name: 'empty text', in: '', out: { value: 1, problems: [] } },
    { name: 'true (a table column)', in: true, out: { value: 1, problems: [] } },
    { name: '"true"', in: 'true', out: { value: 1, problems: [] } },
    { name: 'false (a table column)', in: false, out: { value: 2, problems: [] } },
    { name: '"false"', in: 'false', out: { value: 2, problems: [] } },
    { name: '0', in: 0, out: { value: 2, problems: [] } },
    { name: '"0"', in: '0', out: { value: 2, problems: [] } },
    { name: '1', in: 1, out: { value: 1, problems: [] } },
    { name: '2', in: 2, out: { value: 2, problems: [] } },
    { name: '"3"', in: '3', out: { value: 3, problems: [] } },
    { name: '4', in: 4, out: { value: 4, problems: [] } },
    { name: '5 is out of the set', in: 5, out: { value: 1, problems: [['E_ENUM', '/p']] } },
    { name: '2.5', in: 2.5, out: { value: 1, problems: [['E_ENUM', '/p']] } },
    { name: 'a word', in: 'hidden', out: { value: 1, problems: [['E_ENUM', '/p']] } },
    { name: 'a list', in: [1], out: { value: 1, problems: [['E_ENUM', '/p']] } },
    { name: 'an object', in: {}, out: { value: 1, problems: [['E_ENUM', '/p']] } },
  ];
  it.each(fixtures)('$name', ({ in: raw, out }) => {
    expect(withSink((sink) => showOf(raw, sink, '/p'))).toEqual(out);
  });
});

describe('timeFormatOf', () => {
  const fixtures: Fixture<[string | undefined, DataType], string | undefined>[] = [
    { name: 'date and time, hh read as 24-hour', in: ['yyyy-MM-dd hh:mm:ss', 'datetime'], out: 'YYYY-MM-DD HH:mm:ss' },
    { name: 'date only', in: ['yyyy-MM-dd', 'datetime'], out: 'YYYY-MM-DD' },
    { name: 'HH stays HH', in: ['yyyy-MM-dd HH:mm', 'datetime'], out: 'YYYY-MM-DD HH:mm' },
    { name: 'two-digit year', in: ['yy/MM/dd', 'datetime'], out: 'YY/MM/DD' },
    { name: 'absent on a datetime field', in: [undefined, 'datetime'], out: 'YYYY-MM-DD HH:mm:ss' },
    { name: 'empty on a datetime field', in: ['', 'datetime'], out: 'YYYY-MM-DD HH:mm:ss' },
    { name: 'absent elsewhere', in: [undefined, 'varchar'], out: undefined },
  ];
  it.each(fixtures)('$name', ({ in: [fmt, dataType], out }) => {
    expect(timeFormatOf(fmt, dataType)).toBe(out);
  });
});

describe('maxLengthOf', () => {
  const fixtures: Fixture<[FieldKind, string | undefined], number | undefined>[] = [
    { name: 'text input: 255', in: ['text', undefined], out: 255 },
    { name: 'text input with a pattern: still 255', in: ['text', '^\\d+$'], out: 255 },
    { name: 'textarea: 1024', in: ['textarea', undefined], out: 1024 },
    { name: 'textarea with a pattern: the pattern decides', in: ['textarea', '^a'], out: undefined },
    { name: 'editor: no cap', in: ['editor', undefined], out: undefined },
    { name: 'long: no cap', in: ['long', undefined], out: undefined },
    { name: 'dict: no cap', in: ['dict', undefined], out: undefined },
  ];
  it.each(fixtures)('$name', ({ in: [kind, pattern], out }) => {
    expect(maxLengthOf(kind, pattern)).toBe(out);
  });
});

describe('stepOf', () => {
  const fixtures: Fixture<[DataType, number | undefined], number | undefined>[] = [
    { name: 'long steps by 1', in: ['long', undefined], out: 1 },
    { name: 'long ignores decimals', in: ['long', 3], out: 1 },
    { name: 'decimal, 3 places', in: ['decimal', 3], out: 0.001 },
    { name: 'decimal, 2 places', in: ['decimal', 2], out: 0.01 },
    { name: 'decimal, 0 places', in: ['decimal', 0], out: 1 },
    { name: 'decimal, 10 places', in: ['decimal', 10], out: 1e-10 },
    { name: 'decimal without decimals', in: ['decimal', undefined], out: undefined },
    { name: 'varchar', in: ['varchar', 2], out: undefined },
  ];
  it.each(fixtures)('$name', ({ in: [dataType, decimals], out }) => {
    expect(stepOf(dataType, decimals)).toBe(out);
  });
});

describe('searchKindOf', () => {
  const fixtures: Fixture<{ dataType?: string; configure?: object }, ColumnModel['searchKind']>[] = [
    { name: 'varchar', in: {}, out: 'text' },
    { name: 'long', in: { dataType: 'long' }, out: 'number' },
    { name: 'decimal', in: { dataType: 'decimal' }, out: 'number' },
    { name: 'datetime', in: { dataType: 'datetime' }, out: 'date' },
    { name: 'dict', in: { dataType: 'long', configure: { dict: 'yesNo' } }, out: 'dict' },
    { name: 'remote wins over dict', in: { configure: { dict: 'yesNo', sportData: '1' } }, out: 'remote' },
    { name: 'city wins over remote', in: { configure: { sportData: 1, city: 'true' } }, out: 'city' },
    { name: 'a textarea searches as text', in: { configure: { textarea: true } }, out: 'text' },
  ];
  it.each(fixtures)('$name', ({ in: raw, out }) => {
    expect(searchKindOf(readField({ name: 'a', ...raw }))).toBe(out);
  });
});

describe('normalizeField', () => {
  const P = '/disTemplate/formOption/0/configure';
  const fixtures: Fixture<RawField, Normalized<FieldModel>>[] = [
    {
      name: 'a bare field: text input, shown, optional, 255',
      in: { name: 'a' },
      out: { model: field({ name: 'a' }), problems: [] },
    },
    {
      name: 'label from chName, trimmed; blank chName falls back to the name',
      in: { name: 'a', chName: '  单号 ' },
      out: { model: field({ name: 'a', label: '单号' }), problems: [] },
    },
    {
      name: 'loose values are coerced (booleans and numbers written as text)',
      in: {
        name: 'q',
        dataType: 'decimal',
        configure: { required: '1', min: '0', max: '100.5', decimals: '3', show: '3', editLock: 'true' },
      },
      out: {
        model: field({
          name: 'q',
          dataType: 'decimal',
          kind: 'decimal',
          required: true,
          min: 0,
          max: 100.5,
          decimals: 3,
          step: 0.001,
          show: 3,
          editLock: true,
          maxLength: undefined,
        }),
        problems: [],
      },
    },
    {
      name: 'decimals are kept for decimal fields only',
      in: { name: 'n', dataType: 'long', configure: { decimals: 2 } },
      out: { model: field({ name: 'n', dataType: 'long', kind: 'long', step: 1, maxLength: undefined }), problems: [] },
    },
    {
      name: 'decimals out of range are reported and not used',
      in: { name: 'q', dataType: 'decimal', configure: { decimals: -1 } },
      out: {
        model: field({ name: 'q', dataType: 'decimal', kind: 'decimal', maxLength: undefined }),
        problems: [['E_RANGE', `${P}/decimals`]],
      },
    },
    {
      name: 'decimals above 10 are reported and not used',
      in: { name: 'q', dataType: 'decimal', configure: { decimals: 200 } },
      out: {
        model: field({ name: 'q', dataType: 'decimal', kind: 'decimal', maxLength: undefined }),
        problems: [['E_RANGE', `${P}/decimals`]],
      },
    },
    {
      name: 'min above max',
      in: { name: 'n', dataType: 'long', configure: { min: 10, max: '1' } },
      out: {
        model: field({ name: 'n', dataType: 'long', kind: 'long', step: 1, min: 10, max: 1, maxLength: undefined }),
        problems: [['E_RANGE', `${P}/min`]],
      },
    },
    {
      name: 'a textarea: 1024 and 3 rows by default',
      in: { name: 't', configure: { textarea: 1 } },
      out: { model: field({ name: 't', kind: 'textarea', maxLength: 1024, rows: 3 }), problems: [] },
    },
    {
      name: 'a textarea with a pattern: no length cap',
      in: { name: 't', configure: { textarea: true, rows: '5', pattern: '^a+$' } },
      out: { model: field({ name: 't', kind: 'textarea', maxLength: undefined, rows: 5, pattern: '^a+$' }), problems: [] },
    },
    {
      name: 'an invalid pattern',
      in: { name: 't', configure: { pattern: '([a-z' } },
      out: { model: field({ name: 't', pattern: '([a-z' }), problems: [['E_PATTERN', `${P}/pattern`]] },
    },
    {
      name: 'a pattern too large to bound what it costs: too long, a count or nested counts above 1000',
      in: { name: 't', configure: { pattern: `^${'a'.repeat(500)}` } },
      out: { model: field({ name: 't', pattern: `^${'a'.repeat(500)}` }), problems: [['E_PATTERN', `${P}/pattern`]] },
    },
    {
      name: 'a count above 1000',
      in: { name: 't', configure: { pattern: '^a{0,1001}' } },
      out: { model: field({ name: 't', pattern: '^a{0,1001}' }), problems: [['E_PATTERN', `${P}/pattern`]] },
    },
    {
      name: 'nested counts above 1000',
      in: { name: 't', configure: { pattern: '(?:(?=[^]{100})a){11}' } },
      out: { model: field({ name: 't', pattern: '(?:(?=[^]{100})a){11}' }), problems: [['E_PATTERN', `${P}/pattern`]] },
    },
    {
      name: 'counts at the bound',
      in: { name: 't', configure: { pattern: '^(?:a{10}){100}b{1000}' } },
      out: { model: field({ name: 't', pattern: '^(?:a{10}){100}b{1000}' }), problems: [] },
    },
    {
      name: 'a named validator',
      in: { name: 'm', configure: { validator: 'mobile' } },
      out: { model: field({ name: 'm', validator: 'mobile' }), problems: [] },
    },
    {
      name: 'an unknown validator is an error and is not used',
      in: { name: 'm', configure: { validator: 'qq' } },
      out: { model: field({ name: 'm' }), problems: [['E_VALIDATOR', `${P}/validator`]] },
    },
    {
      name: 'defaultValue of a scalar kind',
      in: { name: 'n', dataType: 'long', configure: { defaultValue: 1 } },
      out: { model: field({ name: 'n', dataType: 'long', kind: 'long', step: 1, defaultValue: 1, maxLength: undefined }), problems: [] },
    },
    {
      name: 'defaultValue that is an object',
      in: { name: 'a', configure: { defaultValue: { x: 1 } } },
      out: { model: field({ name: 'a' }), problems: [['E_TYPE', `${P}/defaultValue`]] },
    },
    {
      name: 'datetime: timeFmt read as dayjs',
      in: { name: 'd', dataType: 'datetime', configure: { timeFmt: 'yyyy-MM-dd hh:mm:ss' } },
      out: {
        model: field({ name: 'd', dataType: 'datetime', kind: 'datetime', timeFormat: 'YYYY-MM-DD HH:mm:ss', maxLength: undefined }),
        problems: [],
      },
    },
    {
      name: 'relations: item as a list or as "a,b", value compared as text',
      in: { name: 'car', configure: { showRelation: { item: ['a', 'b'], value: 1 }, requiredRelation: { item: 'c, d', value: '1' } } },
      out: {
        model: field({
          name: 'car',
          showRelation: { fields: ['a', 'b'], value: '1' },
          requiredRelation: { fields: ['c', 'd'], value: '1' },
        }),
        problems: [],
      },
    },
    {
      name: 'a relation without items is no relation; one without a value matches ""',
      in: { name: 'car', configure: { showRelation: { item: '', value: '1' }, requiredRelation: { item: 'a' } } },
      out: { model: field({ name: 'car', requiredRelation: { fields: ['a'], value: '' } }), problems: [] },
    },
    {
      name: 'remote options: type 1 fixed, type 2 a field, absent type fixed',
      in: {
        name: 'co',
        configure: {
          sportData: 'true',
          sportData_url: '/api/company',
          sportData_type: 'tree',
          sportData_list_multiple: 1,
          sportData_params: [
            { key: 'companyType', type: 1, value: 2 },
            { key: 'companyId', type: '2', value: 'partyA' },
            { key: 'plain', value: 'x' },
          ],
        },
      },
      out: {
        model: field({
          name: 'co',
          kind: 'remote',
          maxLength: undefined,
          remote: {
            url: '/api/company',
            tree: true,
            multiple: true,
            params: [
              { key: 'companyType', source: 'fixed', value: '2' },
              { key: 'companyId', source: 'field', value: 'partyA' },
              { key: 'plain', source: 'fixed', value: 'x' },
            ],
          },
        }),
        problems: [],
      },
    },
    {
      name: 'remote options without a URL, a parameter without a key',
      in: { name: 'co', configure: { sportData: true, sportData_params: [{ type: 1, value: 'x' }] } },
      out: {
        model: field({ name: 'co', kind: 'remote', maxLength: undefined, remote: { url: '', tree: false, multiple: false, params: [] } }),
        problems: [
          ['E_REQUIRED', `${P}/sportData_params/0/key`],
          ['E_REQUIRED', `${P}/sportData_url`],
        ],
      },
    },
    {
      name: 'an image upload: jpg, jpeg, png, one file',
      in: { name: 'photo', configure: { file: 'image' } },
      out: {
        model: field({
          name: 'photo',
          kind: 'image',
          maxLength: undefined,
          upload: { image: true, accept: IMAGE_UPLOAD_TYPES, maxCount: 1 },
        }),
        problems: [],
      },
    },
    {
      name: 'a file upload: office documents and images, one file',
      in: { name: 'att', configure: { file: 'FILE' } },
      out: {
        model: field({
          name: 'att',
          kind: 'file',
          maxLength: undefined,
          upload: { image: false, accept: ['doc', 'docx', 'xls', 'xlsx', 'pdf', 'jpg', 'jpeg', 'png'], maxCount: 1 },
        }),
        problems: [],
      },
    },
    {
      name: 'fileType as text, with dots and capitals, deduplicated; fileSize as text',
      in: { name: 'att', configure: { file: 'file', fileType: '.PDF, doc,pdf', fileSize: '3' } },
      out: {
        model: field({ name: 'att', kind: 'file', maxLength: undefined, upload: { image: false, accept: ['pdf', 'doc'], maxCount: 3 } }),
        problems: [],
      },
    },
    {
      name: 'fileSize below 1',
      in: { name: 'att', configure: { file: 'image', fileSize: 0 } },
      out: {
        model: field({
          name: 'att',
          kind: 'image',
          maxLength: undefined,
          upload: { image: true, accept: IMAGE_UPLOAD_TYPES, maxCount: 1 },
        }),
        problems: [['E_RANGE', `${P}/fileSize`]],
      },
    },
    {
      name: 'unknown configure keys are kept, keys sorted',
      in: { name: 'a', configure: { zeta: { b: 1, a: 2 }, alpha: 'x', sort: 2 } },
      out: { model: field({ name: 'a', extra: { alpha: 'x', zeta: { a: 2, b: 1 } } }), problems: [] },
    },
    {
      name: 'show 4, disabled, inputWidth "250px", tips, dict',
      in: { name: 'a', configure: { show: 4, disabled: '1', inputWidth: '250px', tips: '提示', dict: 'yesNo' } },
      out: {
        model: field({
          name: 'a',
          kind: 'dict',
          maxLength: undefined,
          show: 4,
          disabled: true,
          inputWidth: 250,
          tips: '提示',
          dict: 'yesNo',
        }),
        problems: [],
      },
    },
    {
      name: 'show out of range',
      in: { name: 'a', configure: { show: 7 } },
      out: { model: field({ name: 'a' }), problems: [['E_ENUM', `${P}/show`]] },
    },
  ];
  it.each(fixtures)('$name', ({ in: raw, out }) => {
    expectNormalized((sink) => normalizeField(readField(raw), sink), out);
  });

  it('never shares the default upload lists between fields', () => {
    const a = normalizeField(readField({ name: 'a', configure: { file: 'file' } }), new Sink(FILE));
    expect(a.upload?.accept).toEqual(GENERAL_UPLOAD_TYPES);
    expect(GENERAL_UPLOAD_TYPES).toEqual(['doc', 'docx', 'xls', 'xlsx', 'pdf', 'jpg', 'jpeg', 'png']);
    expect(IMAGE_UPLOAD_TYPES).toEqual(['jpg', 'jpeg', 'png']);
  });
});

describe('normalizeColumn', () => {
  const P = '/disTemplate/tableOption/0/configure';
  const fixtures: Fixture<RawField, Normalized<ColumnModel>>[] = [
    { name: 'a bare column: visible text column', in: { name: 'a' }, out: { model: column({ name: 'a' }), problems: [] } },
    {
      name: 'show false hides the column',
      in: { name: 'a', configure: { show: false } },
      out: { model: column({ name: 'a', visible: false }), problems: [] },
    },
    {
      name: 'show "0" hides it',
      in: { name: 'a', configure: { show: '0' } },
      out: { model: column({ name: 'a', visible: false }), problems: [] },
    },
    {
      name: 'show 3 (read-only) is visible',
      in: { name: 'a', configure: { show: 3 } },
      out: { model: column({ name: 'a' }), problems: [] },
    },
    {
      name: 'show 4 is hidden',
      in: { name: 'a', configure: { show: 4 } },
      out: { model: column({ name: 'a', visible: false }), problems: [] },
    },
    {
      name: 'show "x"',
      in: { name: 'a', configure: { show: 'x' } },
      out: { model: column({ name: 'a' }), problems: [['E_ENUM', `${P}/show`]] },
    },
    {
      name: 'table keys, loosely spelled',
      in: {
        name: 'amount',
        chName: '金额',
        dataType: 'decimal',
        configure: {
          width: '120px',
          align: 'RIGHT',
          tags: 1,
          sortable: 'true',
          overflow: '1',
          unit: '元',
          money: true,
          decimals: '2',
          search: 'false',
          dict: 'd',
        },
      },
      out: {
        model: column({
          name: 'amount',
          label: '金额',
          dataType: 'decimal',
          width: 120,
          align: 'right',
          tags: true,
          sortable: true,
          overflow: true,
          unit: '元',
          money: true,
          decimals: 2,
          dict: 'd',
          searchKind: 'dict',
        }),
        problems: [],
      },
    },
    {
      name: 'a percentage width stays text',
      in: { name: 'a', configure: { width: '20%' } },
      out: { model: column({ name: 'a', width: '20%' }), problems: [] },
    },
    {
      name: 'decimals out of range are reported and not used',
      in: { name: 'q', dataType: 'decimal', configure: { decimals: 11 } },
      out: { model: column({ name: 'q', dataType: 'decimal', searchKind: 'number' }), problems: [['E_RANGE', `${P}/decimals`]] },
    },
    {
      name: 'a datetime column: its format and a date search',
      in: { name: 'at', dataType: 'datetime', configure: { timeFmt: 'yyyy-MM-dd', search: true } },
      out: {
        model: column({ name: 'at', dataType: 'datetime', timeFormat: 'YYYY-MM-DD', search: true, searchKind: 'date' }),
        problems: [],
      },
    },
    {
      name: 'a remote search field',
      in: {
        name: 'co',
        configure: { search: 1, sportData: 1, sportData_url: '/api/co', sportData_params: [{ key: 'k', type: 2, value: 'x' }] },
      },
      out: {
        model: column({
          name: 'co',
          search: true,
          searchKind: 'remote',
          remote: { url: '/api/co', tree: false, multiple: false, params: [{ key: 'k', source: 'field', value: 'x' }] },
        }),
        problems: [],
      },
    },
    {
      name: 'unknown configure keys are kept',
      in: { name: 'a', configure: { fixed: 'left' } },
      out: { model: column({ name: 'a', extra: { fixed: 'left' } }), problems: [] },
    },
  ];
  it.each(fixtures)('$name', ({ in: raw, out }) => {
    expectNormalized((sink) => normalizeColumn(readField(raw, '/disTemplate/tableOption/0'), sink), out);
  });
});

// ----- rules reached through normalizeDefinition -----

type Json = Record<string, unknown>;

const view = (template: unknown, over: Json = {}): Json => ({
  id: 1,
  name: '演示',
  status: 1,
  menuId: 10,
  disMenu: { componentName: 'demo', name: '演示' },
  disTemplate: template,
  ...over,
});

/** A view definition around this template, normalised. */
const viewResult = (template: unknown, over: Json = {}): NormalizeResult =>
  normalizeDefinition({ kind: 'view', file: FILE, json: view(template, over) });

function listPage(json: unknown): { page: ListPageModel; problems: Found[] } {
  const r = normalizeDefinition({ kind: 'view', file: FILE, json });
  expect(r.page?.kind).toBe('list');
  return { page: r.page as ListPageModel, problems: found(r.problems) };
}

const problemsOf = (r: NormalizeResult) => found(r.problems);
const f = (name: string, configure: Json = {}, extra: Json = {}) => ({ name, chName: name, dataType: 'varchar', configure, ...extra });

describe('view: fields, columns and the form', () => {
  it('orders columns and form fields by configure.sort, index as the tiebreak, unsorted last', () => {
    const { page } = listPage(
      view({
        tableOption: [f('c', { sort: 3 }), f('none1'), f('a', { sort: '1' }), f('b1', { sort: 2 }), f('none2'), f('b2', { sort: 2 })],
        formOption: { items: [f('y', { sort: 2 }), f('x', { sort: -1 }), f('z')] },
      }),
    );
    expect(page.columns.map((c) => c.name)).toEqual(['a', 'b1', 'b2', 'c', 'none1', 'none2']);
    expect(page.form.fields.map((x) => x.name)).toEqual(['x', 'y', 'z']);
  });

  it('reports fields without a name, with a bad name or a duplicate name, and leaves them out', () => {
    const r = viewResult({ formOption: [f('ok'), f(''), f('1st'), f('OK'), { configure: {} }, f('a-b'), f('x'.repeat(64))] });
    expect((r.page as ListPageModel).form.fields.map((x) => x.name)).toEqual(['ok']);
    expect(problemsOf(r)).toEqual(
      sorted([
        ['E_REQUIRED', '/disTemplate/formOption/1/name'],
        ['E_NAME', '/disTemplate/formOption/2/name'],
        ['E_DUPLICATE', '/disTemplate/formOption/3/name'],
        ['E_REQUIRED', '/disTemplate/formOption/4/name'],
        ['E_NAME', '/disTemplate/formOption/5/name'],
        ['E_NAME', '/disTemplate/formOption/6/name'],
      ]),
    );
  });

  it('reads a number given as a field name as text (and rejects it as an identifier)', () => {
    const r = viewResult({ formOption: [{ name: 123 }, { name: 'a', chName: 456 }] });
    expect(problemsOf(r)).toEqual([['E_NAME', '/disTemplate/formOption/0/name']]);
    expect((r.page as ListPageModel).form.fields[0]?.label).toBe('456');
  });

  it('without formOption, the form uses tableOption: show true/false read as 1/2', () => {
    const { page, problems } = listPage(
      view({ tableOption: [f('a', { show: true, sort: 2 }), f('b', { show: false, sort: 1 }), f('c', { show: '0' })] }),
    );
    expect(problems).toEqual([]);
    expect(page.form.fields.map((x) => [x.name, x.show])).toEqual([
      ['b', 2],
      ['a', 1],
      ['c', 2],
    ]);
    expect(page.columns.map((c) => [c.name, c.visible])).toEqual([
      ['b', false],
      ['a', true],
      ['c', false],
    ]);
  });

  it('without formOption, the form checks of tableOption fields are reported, each once', () => {
    const P = '/disTemplate/tableOption/0/configure';
    const r = viewResult({
      tableOption: [
        f('a', {
          pattern: '(',
          validator: 'qq',
          min: 5,
          max: 1,
          show: 9,
          decimals: 12,
          sportData: true,
          showRelation: { item: 'nope', value: 1 },
        }),
      ],
    });
    expect(problemsOf(r)).toEqual(
      sorted([
        ['E_PATTERN', `${P}/pattern`],
        ['E_VALIDATOR', `${P}/validator`],
        ['E_RANGE', `${P}/min`],
        ['E_ENUM', `${P}/show`],
        ['E_RANGE', `${P}/decimals`],
        ['E_REQUIRED', `${P}/sportData_url`],
        ['E_REFERENCE', `${P}/showRelation/item`],
      ]),
    );
  });

  it('reads an options address in one spelling only: any other is E_URL, so every reader takes it as the same view', () => {
    const P0 = '/disTemplate/tableOption/0/configure/sportData_url';
    for (const url of ['/api/general/allList/19/queryLink', '/api/company/list', '/api/general/allList/19/queryLink?type=2&x=%20'])
      expect(problemsOf(viewResult({ tableOption: [f('a', { sportData: 1, sportData_url: url })] })), url).toEqual([]);
    for (const url of [
      '/api/general/allList/./19/queryLink',
      '/api/general/allList/019/queryLink',
      '/api/general/allList/000000019/queryLink',
      '/api/general/allList/18/../19/queryLink',
      '/api/general//allList/19/queryLink',
      '/api/general/allList/%31%39/queryLink',
      '/api/general/allList/19/queryLink#x',
      '\\api\\general\\allList\\19\\queryLink',
      ' /api/general/allList/19/queryLink',
      '/api/general/allList/1\t9/queryLink',
      'http://source.example/api/general/allList/19/queryLink',
      '//source.example/api/general/allList/19/queryLink',
      'api/general/allList/19/queryLink',
    ])
      expect(problemsOf(viewResult({ tableOption: [f('a', { sportData: 1, sportData_url: url })] })), url).toEqual([['E_URL', P0]]);
  });

  it('with formOption, the table and the form are checked each at its own pointers', () => {
    const r = viewResult({ tableOption: [f('a', { show: 'x', decimals: -2 })], formOption: [f('a', { show: 'x', decimals: -2 })] });
    expect(problemsOf(r)).toEqual(
      sorted([
        ['E_ENUM', '/disTemplate/tableOption/0/configure/show'],
        ['E_RANGE', '/disTemplate/tableOption/0/configure/decimals'],
        ['E_ENUM', '/disTemplate/formOption/0/configure/show'],
        ['E_RANGE', '/disTemplate/formOption/0/configure/decimals'],
      ]),
    );
  });

  it('checks relations and type-2 parameters against the form, with pointers into {items}', () => {
    const at = '/disTemplate/formOption/items';
    const r = viewResult({
      formOption: {
        items: [
          f('a', { showRelation: { item: 'b,zz', value: '1' }, requiredRelation: { item: ['a'], value: '1' } }),
          f('b', {
            sportData: 1,
            sportData_url: '/u',
            sportData_params: [
              { key: 'k1', type: 2, value: 'a' },
              { key: 'k2', type: 2, value: 'gone' },
              { key: 'k3', type: 1, value: 'gone' },
            ],
          }),
        ],
      },
    });
    expect(problemsOf(r)).toEqual(
      sorted([
        ['E_REFERENCE', `${at}/0/configure/showRelation/item`],
        ['E_REFERENCE', `${at}/0/configure/requiredRelation/item`],
        ['E_REFERENCE', `${at}/1/configure/sportData_params/1/value`],
      ]),
    );
  });
});

describe('view: dividers', () => {
  // Form fields in list order z(sort 3), x(sort 1), y(sort 2): sorted x, y, z.
  const fields = [f('z', { sort: 3 }), f('x', { sort: 1 }), f('y', { sort: 2 })];
  const fixtures: Fixture<unknown[], { dividers: { before: string; title: string }[]; problems: Found[] }>[] = [
    {
      name: 'by field name',
      in: [{ position: 'y', chName: '基本信息' }],
      out: { dividers: [{ before: 'y', title: '基本信息' }], problems: [] },
    },
    { name: 'by name, padded', in: [{ position: ' z ', chName: 'T' }], out: { dividers: [{ before: 'z', title: 'T' }], problems: [] } },
    {
      name: 'by 0-based index into the sorted form fields, not the list order',
      in: [
        { position: 0, chName: 'A' },
        { position: 2, chName: 'C' },
      ],
      out: {
        dividers: [
          { before: 'x', title: 'A' },
          { before: 'z', title: 'C' },
        ],
        problems: [],
      },
    },
    { name: 'an index as text', in: [{ position: '1', chName: 'B' }], out: { dividers: [{ before: 'y', title: 'B' }], problems: [] } },
    { name: 'no chName: an empty title', in: [{ position: 'x' }], out: { dividers: [{ before: 'x', title: '' }], problems: [] } },
    {
      name: 'an index past the end',
      in: [{ position: 3, chName: 'X' }],
      out: { dividers: [], problems: [['E_REFERENCE', '/disTemplate/formDividerOption/0/position']] },
    },
    {
      name: 'a name that is not a form field, a negative index, a fraction, nothing',
      in: [{ position: 'nope' }, { position: -1 }, { position: '1.5' }, { chName: 'no position' }, { position: 'x', chName: 'ok' }],
      out: {
        dividers: [{ before: 'x', title: 'ok' }],
        problems: [
          ['E_REFERENCE', '/disTemplate/formDividerOption/0/position'],
          ['E_REFERENCE', '/disTemplate/formDividerOption/1/position'],
          ['E_REFERENCE', '/disTemplate/formDividerOption/2/position'],
          ['E_REFERENCE', '/disTemplate/formDividerOption/3/position'],
        ],
      },
    },
  ];
  it.each(fixtures)('$name', ({ in: dividers, out }) => {
    const { page, problems } = listPage(view({ formOption: fields, formDividerOption: dividers }));
    expect(page.form.dividers).toEqual(out.dividers);
    expect(problems).toEqual(sorted(out.problems));
  });

  it('points into { items } when the list comes that way', () => {
    const { problems } = listPage(view({ formOption: fields, formDividerOption: { items: [{ position: 9 }] } }));
    expect(problems).toEqual([['E_REFERENCE', '/disTemplate/formDividerOption/items/0/position']]);
  });

  it('indexes into tableOption when there is no formOption', () => {
    const { page } = listPage(view({ tableOption: fields, formDividerOption: [{ position: 0, chName: 'A' }] }));
    expect(page.form.dividers).toEqual([{ before: 'x', title: 'A' }]);
  });
});

describe('view: buttons', () => {
  const buttons = (list: unknown) => listPage(view({ tableOption: [f('status')], btnDIYOption: list }));
  const b = (name: string, configure: Json) => ({ name, chName: `${name}!`, configure });

  it('orders by configure.sort with the index as tiebreak, unsorted last', () => {
    const { page } = buttons([
      b('u1', { action: 'groovy' }),
      b('s3', { action: 'groovy', sort: 3 }),
      b('s1a', { action: 'groovy', sort: '1' }),
      b('u2', { action: 'groovy' }),
      b('s1b', { action: 'groovy', sort: 1 }),
      b('s0', { action: 'groovy', sort: 0 }),
    ]);
    expect(page.buttons.map((x) => x.name)).toEqual(['s0', 's1a', 's1b', 's3', 'u1', 'u2']);
  });

  it('reads a full button, roles from root ∪ rootDIY, as lists or "a,b"', () => {
    const { page, problems } = buttons({
      items: [
        b('gen', {
          position: 'fun',
          action: 'submit',
          submitType: 'GET',
          submitUrl: '/api/x/gen',
          confirm: '1',
          multiple: 'true',
          root: 'admin, stockIn:gen',
          rootDIY: ['auditor', 'admin', ''],
          showRelation_item: 'status',
          showRelation_value: 1,
        }),
      ],
    });
    expect(problems).toEqual([]);
    expect(page.buttons).toEqual<ButtonModel[]>([
      {
        name: 'gen',
        label: 'gen!',
        position: 'toolbar',
        action: 'submit',
        submitType: 'get',
        submitUrl: '/api/x/gen',
        confirm: true,
        multiple: true,
        roles: ['admin', 'stockIn:gen', 'auditor'],
        showWhen: { field: 'status', value: '1' },
      },
    ]);
  });

  it('defaults: a row button, post, no confirm, everyone; a nameless button gets one', () => {
    const { page } = buttons([{ configure: { action: 'submit', submitUrl: '/u' } }, b('g', { action: 'groovy', position: 'opt' })]);
    expect(page.buttons).toEqual<ButtonModel[]>([
      {
        name: 'button1',
        label: 'button1',
        position: 'row',
        action: 'submit',
        submitType: 'post',
        submitUrl: '/u',
        confirm: false,
        multiple: false,
        roles: [],
      },
      { name: 'g', label: 'g!', position: 'row', action: 'groovy', confirm: false, multiple: false, roles: [] },
    ]);
  });

  const needs: Fixture<Json, Found[]>[] = [
    { name: 'submit needs submitUrl', in: { action: 'submit' }, out: [['E_REQUIRED', '/disTemplate/btnDIYOption/0/configure/submitUrl']] },
    { name: 'submit with submitUrl', in: { action: 'submit', submitUrl: '/u' }, out: [] },
    { name: 'groovy needs nothing', in: { action: 'groovy' }, out: [] },
    { name: 'dialog needs view', in: { action: 'dialog' }, out: [['E_REQUIRED', '/disTemplate/btnDIYOption/0/configure/view']] },
    { name: 'dialog with view as text', in: { action: 'dialog', view: '12' }, out: [] },
    { name: 'view needs view', in: { action: 'view', view: '' }, out: [['E_REQUIRED', '/disTemplate/btnDIYOption/0/configure/view']] },
    {
      name: 'website needs websiteUrl',
      in: { action: 'website' },
      out: [['E_REQUIRED', '/disTemplate/btnDIYOption/0/configure/websiteUrl']],
    },
    {
      name: 'system needs websiteUrl',
      in: { action: 'system', websiteUrl: null },
      out: [['E_REQUIRED', '/disTemplate/btnDIYOption/0/configure/websiteUrl']],
    },
    {
      name: 'a javascript: websiteUrl',
      in: { action: 'website', websiteUrl: "javascript:alert('x')\n" },
      out: [['E_URL', '/disTemplate/btnDIYOption/0/configure/websiteUrl']],
    },
    {
      name: 'a data: websiteUrl, spelt as a browser still reads it',
      in: { action: 'website', websiteUrl: ' Da\tta:text/html,<script>1</script>' },
      out: [['E_URL', '/disTemplate/btnDIYOption/0/configure/websiteUrl']],
    },
    {
      name: 'a vbscript: in-app address',
      in: { action: 'system', websiteUrl: 'vbscript:msgbox(1)' },
      out: [['E_URL', '/disTemplate/btnDIYOption/0/configure/websiteUrl']],
    },
    { name: 'a mailto: websiteUrl', in: { action: 'website', websiteUrl: 'mailto:ops@example.com' }, out: [] },
    { name: 'an in-app path', in: { action: 'system', websiteUrl: '/dispose/vBuild/temp/30' }, out: [] },
    { name: 'no action', in: { submitUrl: '/u' }, out: [['E_REQUIRED', '/disTemplate/btnDIYOption/0/configure/action']] },
    { name: 'an unknown action', in: { action: 'fly' }, out: [['E_ENUM', '/disTemplate/btnDIYOption/0/configure/action']] },
    {
      name: 'a view that is not a number is reported once, not also as missing',
      in: { action: 'view', view: 'abc' },
      out: [['E_NUMBER', '/disTemplate/btnDIYOption/0/configure/view']],
    },
    { name: 'a dialog opening the record a field links', in: { action: 'dialog', view: 16, linkField: 'status' }, out: [] },
    {
      name: 'linkField naming no field of the view',
      in: { action: 'dialog', view: 16, linkField: 'contractId' },
      out: [['W_REFERENCE', '/disTemplate/btnDIYOption/0/configure/linkField']],
    },
    {
      name: 'linkField on an action that opens nothing',
      in: { action: 'groovy', linkField: 'status' },
      out: [['W_REFERENCE', '/disTemplate/btnDIYOption/0/configure/linkField']],
    },
    {
      name: 'showRelation_item naming no field of the view',
      in: { action: 'groovy', showRelation_item: 'state', showRelation_value: '1' },
      out: [['W_REFERENCE', '/disTemplate/btnDIYOption/0/configure/showRelation_item']],
    },
  ];
  it.each(needs)('$name', ({ in: configure, out }) => {
    expect(buttons([b('x', configure)]).problems).toEqual(sorted(out));
  });

  it('a button without an action is left out', () => {
    const { page } = buttons([b('x', {}), b('y', { action: 'groovy' })]);
    expect(page.buttons.map((x) => x.name)).toEqual(['y']);
  });

  it('reports a duplicate name within a position; an absent position is a row button', () => {
    const { problems } = buttons([
      b('same', { action: 'groovy' }),
      b('same', { action: 'groovy', position: 'fun' }),
      b('same', { action: 'groovy', position: 'opt' }),
    ]);
    expect(problems).toEqual([['E_DUPLICATE', '/disTemplate/btnDIYOption/2/name']]);
  });
});

describe('view: list page', () => {
  it('settles permissions, features, api URLs and defaults for a bare template', () => {
    const { page, problems } = listPage(view({ tableOption: [f('a')] }, { id: '7', disMenu: '{"componentName":" stockIn "}', name: '' }));
    expect(problems).toEqual([]);
    expect(page).toMatchObject({
      kind: 'list',
      viewId: 7,
      title: 'stockIn',
      componentName: 'stockIn',
      path: '/dev-tools/temp/page/stockIn/7',
    });
    expect(page.permissions).toEqual({
      list: 'stockIn:list',
      add: 'stockIn:add',
      edit: 'stockIn:edit',
      del: 'stockIn:del',
      look: 'stockIn:look',
      pre: 'stockIn:pre',
    });
    expect(page.features).toEqual({
      add: false,
      edit: false,
      del: false,
      look: false,
      export: false,
      import: false,
      template: false,
      index: false,
      operation: false,
    });
    expect(page.defaultSort).toEqual({ field: 'id', order: 'desc' });
    expect(page.api).toEqual({
      list: '/api/general/list/7',
      detail: '/api/general/formData',
      add: '/api/general/add/7',
      edit: '/api/general/update/7',
      del: '/api/general/delete/7',
      export: '/api/general/export/7/download',
      import: '/api/general/7/import',
      template: '/api/general/7/template',
      groovy: '/api/general/groovy/7',
      preAdd: '/api/general/preAdd/7',
    });
    expect(page.buttons).toEqual([]);
    expect(page.form.dividers).toEqual([]);
  });

  it('takes the form defaults (400, 80 and 250 px) when dialogOption is absent', () => {
    const { page } = listPage(view({ tableOption: [f('a')] }));
    expect(page.form.dialog).toEqual({ width: 400, labelWidth: 80, inputWidth: 250, inline: false, key: 'id', initGroovy: false });
  });

  it('reads dialogOption loosely', () => {
    const { page } = listPage(
      view({
        tableOption: [f('a')],
        dialogOption: { width: '60%', labelWidth: '110px', inputWidth: '300', inline: '1', key: ' code ', suffix: 'x', initGroovy: 'true' },
      }),
    );
    expect(page.form.dialog).toEqual({
      width: '60%',
      labelWidth: 110,
      inputWidth: 300,
      inline: true,
      key: 'code',
      suffix: 'x',
      initGroovy: true,
    });
  });

  it('applies the URL overrides: submitUrl, detailUrl, {export}/download, importSubmitUrl', () => {
    const { page } = listPage(
      view({
        tableOption: [f('a')],
        basicOption: { importSubmitUrl: '/api/stockIn/import' },
        dialogOption: { submitUrl: '/api/stockIn/save', detailUrl: '/api/stockIn/detail', export: '/api/stockIn/export/' },
      }),
    );
    expect(page.api).toMatchObject({
      submit: '/api/stockIn/save',
      detail: '/api/stockIn/detail',
      export: '/api/stockIn/export/download',
      import: '/api/stockIn/import',
    });
  });

  it('treats empty overrides as absent', () => {
    const { page } = listPage(
      view({ tableOption: [f('a')], basicOption: { importSubmitUrl: '' }, dialogOption: { submitUrl: '', detailUrl: '', export: '' } }),
    );
    expect(page.api.submit).toBeUndefined();
    expect(page.api).toMatchObject({
      detail: '/api/general/formData',
      export: '/api/general/export/1/download',
      import: '/api/general/1/import',
    });
  });

  it('reads the features from basicOption loosely', () => {
    const { page } = listPage(
      view({
        tableOption: [f('a')],
        basicOption: {
          add: 1,
          del: '1',
          edit: 'true',
          look: true,
          download: 1,
          import: '0',
          template: 0,
          orderNumber: 'false',
          operation: 1,
          operationWidth: '260px',
        },
      }),
    );
    expect(page.features).toEqual({
      add: true,
      edit: true,
      del: true,
      look: true,
      export: true,
      import: false,
      template: false,
      index: false,
      operation: true,
    });
    expect(page.operationWidth).toBe(260);
  });

  const sorts: Fixture<Json | undefined, { sort: ListPageModel['defaultSort']; problems: Found[] }>[] = [
    { name: 'absent: id,desc', in: undefined, out: { sort: { field: 'id', order: 'desc' }, problems: [] } },
    { name: 'a field, ascending', in: { sortName: 'a', sortType: 'ASC' }, out: { sort: { field: 'a', order: 'asc' }, problems: [] } },
    { name: 'a field, no order: desc', in: { sortName: ' a ' }, out: { sort: { field: 'a', order: 'desc' }, problems: [] } },
    {
      name: 'createTime is always there',
      in: { sortName: 'createTime', sortType: 'asc' },
      out: { sort: { field: 'createTime', order: 'asc' }, problems: [] },
    },
    { name: 'empty sortName: id', in: { sortName: '', sortType: '' }, out: { sort: { field: 'id', order: 'desc' }, problems: [] } },
    {
      name: 'an unknown field falls back to id',
      in: { sortName: 'gone', sortType: 'asc' },
      out: { sort: { field: 'id', order: 'asc' }, problems: [['E_REFERENCE', '/disTemplate/basicOption/sortName']] },
    },
    {
      name: 'an unknown order',
      in: { sortName: 'a', sortType: 'up' },
      out: { sort: { field: 'a', order: 'desc' }, problems: [['E_ENUM', '/disTemplate/basicOption/sortType']] },
    },
  ];
  it.each(sorts)('default sort: $name', ({ in: basicOption, out }) => {
    const { page, problems } = listPage(view({ tableOption: [f('a')], basicOption }));
    expect(page.defaultSort).toEqual(out.sort);
    expect(problems).toEqual(sorted(out.problems));
  });

  it('needs disMenu.componentName, and an identifier', () => {
    const none = viewResult({ tableOption: [] }, { disMenu: { name: 'x' } });
    expect(none.page).toBeUndefined();
    expect(problemsOf(none)).toEqual([['E_REQUIRED', '/disMenu/componentName']]);
    const bad = viewResult({ tableOption: [] }, { disMenu: { componentName: 'stock in' } });
    expect(problemsOf(bad)).toEqual([['E_NAME', '/disMenu/componentName']]);
  });

  it('records file, status (0 when absent) and a content hash that ignores timestamps', () => {
    const a = listPage(view({ tableOption: [f('a')] }, { status: undefined, updateTime: '2024-01-01' })).page;
    const b = listPage(view({ tableOption: [f('a')] }, { status: undefined, updateTime: '2025-06-01' })).page;
    const c = listPage(view({ tableOption: [f('b')] }, { status: '1' })).page;
    expect(a.source).toEqual({ file: FILE, hash: b.source.hash, status: 0 });
    expect(a.source.hash).toMatch(/^sha256-[0-9a-f]{16}$/);
    expect(c.source.status).toBe(1);
    expect(c.source.hash).not.toBe(a.source.hash);
  });
});

// ----- screens -----

const screen = (type: unknown, template: unknown, over: Json = {}): Json => ({
  id: 90,
  name: '大屏',
  status: 1,
  type,
  disMenu: { componentName: 'vBuild90' },
  disTemplate: template,
  ...over,
});

function screenResult(json: unknown) {
  const r = normalizeDefinition({ kind: 'screen', file: 'definitions/screens/90-s.json', json });
  return { page: r.page, problems: found(r.problems) };
}

describe('screens of types 1, 3 and 4', () => {
  const fixtures: Fixture<Json, { page?: Partial<ContainerPageModel> | Partial<FormPageModel>; problems: Found[] }>[] = [
    {
      name: 'type 1: one list view',
      in: screen(1, { baseView: [12] }),
      out: { page: { kind: 'container', screenType: 1, views: [12], title: '大屏', path: '/vBuild/temp/90' }, problems: [] },
    },
    {
      name: 'type 1 with a bare id',
      in: screen('1', { baseView: '12' }),
      out: { page: { kind: 'container', screenType: 1, views: [12] }, problems: [] },
    },
    {
      name: 'type 1 with two views',
      in: screen(1, { baseView: [12, 13] }),
      out: { page: { kind: 'container', views: [12, 13] }, problems: [['E_RANGE', '/disTemplate/baseView']] },
    },
    {
      name: 'type 4: views as tabs, duplicates once, order kept',
      in: screen(4, { baseView: [13, '12', 13, null] }),
      out: { page: { kind: 'container', screenType: 4, views: [13, 12] }, problems: [] },
    },
    {
      name: 'type 4: views as comma-separated text',
      in: screen(4, { baseView: '13, 12' }),
      out: { page: { kind: 'container', screenType: 4, views: [13, 12] }, problems: [] },
    },
    { name: 'type 4 without views', in: screen(4, { baseView: [] }), out: { problems: [['E_REQUIRED', '/disTemplate/baseView']] } },
    {
      name: 'type 4 with a view id that is not a number',
      in: screen(4, { baseView: [12, 'x'] }),
      out: { page: { kind: 'container', views: [12] }, problems: [['E_NUMBER', '/disTemplate/baseView/1']] },
    },
    {
      name: 'type 3: one form',
      in: screen(3, { formView: '30' }),
      out: { page: { kind: 'form', formView: 30, screenId: 90 }, problems: [] },
    },
    { name: 'type 3 without formView', in: screen(3, { baseView: [30] }), out: { problems: [['E_REQUIRED', '/disTemplate/formView']] } },
    { name: 'type 5', in: screen(5, { baseView: [1] }), out: { problems: [['E_SCREEN_TYPE', '/type']] } },
    { name: 'no type', in: screen(undefined, { baseView: [1] }), out: { problems: [['E_SCREEN_TYPE', '/type']] } },
    {
      name: 'title falls back to disMenu.name, then the id',
      in: screen(3, { formView: 1 }, { name: '', disMenu: { name: '表单' } }),
      out: { page: { title: '表单' }, problems: [] },
    },
    { name: 'untitled', in: screen(3, { formView: 1 }, { name: ' ', disMenu: null }), out: { page: { title: '大屏 90' }, problems: [] } },
  ];
  it.each(fixtures)('$name', ({ in: json, out }) => {
    const r = screenResult(json);
    if (out.page) expect(r.page).toMatchObject(out.page);
    else expect(r.page).toBeUndefined();
    expect(r.problems).toEqual(sorted(out.problems));
  });
});

describe('big screens (type 2)', () => {
  const big = (template: Json) => {
    const r = screenResult(screen(2, template));
    return { page: r.page as BigScreenModel, problems: r.problems };
  };

  it('refuses an image or background the app may not draw from, at each place a definition holds one (E_URL)', () => {
    const { problems } = big({
      canvasConfigure: {
        basic: { bgImg: 'javascript:alert(1)' },
        header: { bgImg: '//evil.example/h.png' },
        mainTitle: { bg: 'url(https://evil.example/t.png)' },
      },
      layout: [
        {
          i: 'a',
          container: {
            style: { bgImg: '/api/file/preview?source=a").png' },
            header: { bg: 'http://evil.example/h.png' },
            super: { curtain: { enabled: true, curtainColor: 'image-set("x.png" 1x)' }, curtainColor: 'r\\65 d' },
          },
          chart: [{ fileName: 'lineBar', configure: { private: { line: { symbol: 'image://data:image/png;base64,AAAA' } } } }],
        },
      ],
    });
    expect(problems).toEqual(
      sorted([
        ['E_URL', '/disTemplate/canvasConfigure/basic/bgImg'],
        ['E_URL', '/disTemplate/canvasConfigure/header/bgImg'],
        ['E_URL', '/disTemplate/canvasConfigure/mainTitle/bg'],
        ['E_URL', '/disTemplate/layout/0/container/style/bgImg'],
        ['E_URL', '/disTemplate/layout/0/container/header/bg'],
        ['E_URL', '/disTemplate/layout/0/container/super/curtainColor'],
        ['E_URL', '/disTemplate/layout/0/container/super/curtain/curtainColor'],
        ['E_URL', '/disTemplate/layout/0/chart/0/configure/private/line/symbol'],
      ]),
    );
  });

  it('draws app paths, https images, colours and gradients as they are', () => {
    const { page, problems } = big({
      canvasConfigure: {
        basic: { bgImg: '/api/file/preview?source=bg(1).png' },
        header: { bgImg: 'https://cdn.example.com/h.png' },
        mainTitle: { bg: 'linear-gradient(90deg, #061537, rgba(0,0,0,.4))' },
      },
      layout: [
        {
          i: 'a',
          container: { style: { bgImg: 'images/box.webp' }, header: { bg: '#0a265c' }, super: { curtainColor: 'rgba(0,0,0,0.4)' } },
          chart: [{ fileName: 'lineBar', configure: { private: { line: { symbol: 'image:///api/file/preview?source=dot.png' } } } }],
        },
      ],
    });
    expect(problems).toEqual([]);
    expect(page.canvas.basic.bgImg).toBe('/api/file/preview?source=bg(1).png');
  });

  it('fills the canvas defaults (1920 × 1080, 24 columns)', () => {
    const { page, problems } = big({ layout: [] });
    expect(problems).toEqual([]);
    expect(page.kind).toBe('bigScreen');
    expect(page.canvas.basic).toEqual({
      width: 1920,
      height: 1080,
      defaultCol: 24,
      defaultW: 6,
      defaultH: 18,
      margin: 20,
      autoUpdate: false,
      timer: 60,
    });
    expect(page.canvas.themeColor).toEqual([]);
    expect(page.layout).toEqual([]);
  });

  it('keeps given canvas values, loosely read, with "" as absent', () => {
    const { page } = big({
      canvasConfigure: {
        basic: { width: '1280', height: '', defaultCol: 12, timer: '30', autoUpdate: '1', bgColor: '#000' },
        themeColor: [{ start: '#111', end: '#222' }, { start: '#333' }],
      },
    });
    expect(page.canvas.basic).toEqual({
      width: 1280,
      height: 1080,
      defaultCol: 12,
      defaultW: 6,
      defaultH: 18,
      margin: 20,
      autoUpdate: true,
      timer: 30,
      bgColor: '#000',
    });
    expect(page.canvas.themeColor).toEqual([
      { start: '#111', end: '#222' },
      { start: '#333', end: '#333' },
    ]);
  });

  const canvasRanges: Fixture<Json, Found[]>[] = [
    { name: 'defaultCol 0', in: { defaultCol: 0 }, out: [['E_RANGE', '/disTemplate/canvasConfigure/basic/defaultCol']] },
    { name: 'defaultW 1.5', in: { defaultW: 1.5 }, out: [['E_NUMBER', '/disTemplate/canvasConfigure/basic/defaultW']] },
    { name: 'defaultH -1', in: { defaultH: -1 }, out: [['E_RANGE', '/disTemplate/canvasConfigure/basic/defaultH']] },
    { name: 'width 0', in: { width: '0px' }, out: [['E_RANGE', '/disTemplate/canvasConfigure/basic/width']] },
    { name: 'all fine', in: { defaultCol: 1, defaultW: 1, defaultH: 1 }, out: [] },
  ];
  it.each(canvasRanges)('canvas: $name', ({ in: basic, out }) => {
    expect(big({ canvasConfigure: { basic } }).problems).toEqual(sorted(out));
  });

  it('sorts the layout by y, then x, then list order; items default to the canvas cell size', () => {
    const { page } = big({
      canvasConfigure: { basic: { defaultW: 4, defaultH: 10 } },
      layout: [
        { i: 'c', x: 6, y: 10 },
        { i: 'b', x: 6, y: 0, w: 6, h: 9 },
        { i: 'a', x: '0', y: '0' },
        { i: 'd', x: 0, y: 10 },
        { i: 'e', x: 0, y: 10 },
        { x: 1, y: 20 },
      ],
    });
    expect(page.layout.map((l) => [l.i, l.x, l.y, l.w, l.h])).toEqual([
      ['a', 0, 0, 4, 10],
      ['b', 6, 0, 6, 9],
      ['d', 0, 10, 4, 10],
      ['e', 0, 10, 4, 10],
      ['c', 6, 10, 4, 10],
      ['5', 1, 20, 4, 10],
    ]);
  });

  it('reports a duplicate layout id', () => {
    expect(big({ layout: [{ i: 'a' }, { i: 'a ' }] }).problems).toEqual([['E_DUPLICATE', '/disTemplate/layout/1/i']]);
  });

  it('orders charts by chartIndex (index as tiebreak) and points at their place in the file', () => {
    const { page, problems } = big({
      layout: [
        {
          i: 'a',
          chart: [
            { fileName: 'radar', chartIndex: 2 },
            { fileName: 'pie', chartIndex: '0', configure: { private: { radiusInside: 80, radiusOutSide: '60' } } },
            { fileName: 'scrollList', chartIndex: 1 },
            { fileName: 'lineBar', chartIndex: 1, flexSize: '2', configure: { private: { dataViewId: '5' }, common: { b: 1, a: 2 } } },
          ],
        },
      ],
    });
    const charts = page.layout[0]?.charts ?? [];
    expect(charts.map((c) => [c.kind, c.chartIndex, c.flexSize])).toEqual([
      ['pie', 0, 1],
      ['scrollList', 1, 1],
      ['lineBar', 1, 2],
      ['radar', 2, 1],
    ]);
    expect(charts[2]).toMatchObject({ dataViewId: 5, common: { a: 2, b: 1 } });
    expect(Object.keys(charts[2]?.common ?? {})).toEqual(['a', 'b']);
    expect(problems).toEqual([['E_RANGE', '/disTemplate/layout/0/chart/1/configure/private/radiusInside']]);
  });

  const charts: Fixture<Json, { options: Json; problems: Found[] }>[] = [
    {
      name: 'pie defaults: inner 0, outer 70, font 12',
      in: { fileName: 'pie' },
      out: { options: { fontSize: 12, radiusInside: 0, radiusOutSide: 70, roseType: '' }, problems: [] },
    },
    {
      name: 'pie with given radii, "" read as absent',
      in: { fileName: 'pie', configure: { private: { radiusInside: '20', radiusOutSide: '', roseType: 'area' } } },
      out: { options: { fontSize: 12, radiusInside: 20, radiusOutSide: 70, roseType: 'area' }, problems: [] },
    },
    {
      name: 'pie inner equal to outer is fine',
      in: { fileName: 'pie', configure: { private: { radiusInside: 70 } } },
      out: { options: { fontSize: 12, radiusInside: 70, radiusOutSide: 70, roseType: '' }, problems: [] },
    },
    {
      name: 'pie inner above the default outer',
      in: { fileName: 'pie', configure: { private: { radiusInside: 71 } } },
      out: {
        options: { fontSize: 12, radiusInside: 71, radiusOutSide: 70, roseType: '' },
        problems: [['E_RANGE', '/disTemplate/layout/0/chart/0/configure/private/radiusInside']],
      },
    },
    { name: 'scroll list interval default 3000', in: { fileName: 'scrollList' }, out: { options: { interval: 3000 }, problems: [] } },
    {
      name: 'unknown private keys are kept',
      in: { fileName: 'radar', configure: { private: { z: 1, a: [2] } } },
      out: { options: { a: [2], z: 1 }, problems: [] },
    },
    {
      name: 'no fileName',
      in: { chartIndex: 0 },
      out: { options: {}, problems: [['E_REQUIRED', '/disTemplate/layout/0/chart/0/fileName']] },
    },
  ];
  it.each(charts)('chart: $name', ({ in: chart, out }) => {
    const { page, problems } = big({ layout: [{ i: 'a', chart: [chart] }] });
    expect(page.layout[0]?.charts[0]?.options).toEqual(out.options);
    expect(problems).toEqual(sorted(out.problems));
  });

  it('rejects an unknown chart kind once, not also as missing', () => {
    expect(big({ layout: [{ chart: [{ fileName: 'gauge' }] }] }).problems).toEqual([['E_ENUM', '/disTemplate/layout/0/chart/0/fileName']]);
  });

  type Super = LayoutItemModel['container']['super'];
  const DEFAULT_SUPER: Super = {
    flexDirection: 'row',
    absolute: { enabled: false, top: 0, left: 0 },
    scroll: { enabled: false, direction: 'vertical', speed: 3000 },
    curtain: { enabled: false, curtainColor: 'rgba(0, 0, 0, 0.4)' },
    animation: '',
  };
  const supers: Fixture<unknown, { super: Super; problems: Found[] }>[] = [
    { name: 'absent', in: undefined, out: { super: DEFAULT_SUPER, problems: [] } },
    {
      name: 'flags with their settings beside them',
      in: {
        flexDirection: 'column',
        absolute: '1',
        top: '10',
        left: 20,
        scroll: true,
        direction: 'horizontal',
        speed: '2000',
        curtain: 1,
        curtainColor: '#000',
        animation: 'fade',
      },
      out: {
        super: {
          flexDirection: 'column',
          absolute: { enabled: true, top: 10, left: 20 },
          scroll: { enabled: true, direction: 'horizontal', speed: 2000 },
          curtain: { enabled: true, curtainColor: '#000' },
          animation: 'fade',
        },
        problems: [],
      },
    },
    {
      name: 'objects with enabled',
      in: {
        absolute: { enabled: true, top: 5, left: '6' },
        scroll: { enabled: 'true', direction: 'horizontal', speed: 100 },
        curtain: { enabled: 0, curtainColor: 'red' },
      },
      out: {
        super: {
          ...DEFAULT_SUPER,
          absolute: { enabled: true, top: 5, left: 6 },
          scroll: { enabled: true, direction: 'horizontal', speed: 100 },
          curtain: { enabled: false, curtainColor: 'red' },
        },
        problems: [],
      },
    },
    {
      name: 'an object without its settings takes them from beside it',
      in: { scroll: { enabled: true }, speed: 500, direction: 'horizontal' },
      out: { super: { ...DEFAULT_SUPER, scroll: { enabled: true, direction: 'horizontal', speed: 500 } }, problems: [] },
    },
    {
      name: 'scroll speed below 1, beside the flag',
      in: { scroll: true, speed: 0 },
      out: {
        super: { ...DEFAULT_SUPER, scroll: { enabled: true, direction: 'vertical', speed: 0 } },
        problems: [['E_RANGE', '/disTemplate/layout/0/container/super/speed']],
      },
    },
    {
      name: 'scroll speed below 1, inside the object',
      in: { scroll: { enabled: true, speed: '0.5' } },
      out: {
        super: { ...DEFAULT_SUPER, scroll: { enabled: true, direction: 'vertical', speed: 0.5 } },
        problems: [['E_RANGE', '/disTemplate/layout/0/container/super/scroll/speed']],
      },
    },
    {
      name: 'scroll speed below 1 beside an object that has none',
      in: { scroll: { enabled: true }, speed: -3 },
      out: {
        super: { ...DEFAULT_SUPER, scroll: { enabled: true, direction: 'vertical', speed: -3 } },
        problems: [['E_RANGE', '/disTemplate/layout/0/container/super/speed']],
      },
    },
    { name: 'a non-text animation is none', in: { animation: { name: 'x' } }, out: { super: DEFAULT_SUPER, problems: [] } },
  ];
  it.each(supers)('container super: $name', ({ in: sup, out }) => {
    const { page, problems } = big({ layout: [{ i: 'a', container: { super: sup } }] });
    expect(page.layout[0]?.container.super).toEqual(out.super);
    expect(problems).toEqual(sorted(out.problems));
  });

  it('fills the container style and header defaults under what is given', () => {
    const { page } = big({
      layout: [{ i: 'a', container: { style: { padding: 8, bgColor: '' }, header: { showTitle: '1', content: '标题', height: '40' } } }],
    });
    expect(page.layout[0]?.container.style).toEqual({
      bgPosition: 'center',
      bgSize: 'contain',
      borderRadius: 4,
      boxShadow: 'inset 0 0 10px rgba(0, 0, 0, 0.3)',
      padding: 8,
    });
    expect(page.layout[0]?.container.header).toEqual({
      color: '#ffffff',
      content: '标题',
      fontSize: 16,
      height: 40,
      showTitle: true,
      textAlign: 'center',
    });
  });
});

// ----- across definitions -----

describe('normalizeAll', () => {
  const input = (kind: 'view' | 'screen', file: string, json: unknown) => ({ kind, file, json });
  const v = (id: number, name = 'demo') => view({ tableOption: [f('a')] }, { id, disMenu: { componentName: name } });
  const withFiles = (problems: readonly Problem[]) => problems.map((p) => [p.file, p.code, p.pointer]);

  it('reports a duplicate id in the later file; views and screens have separate ids', () => {
    const r = normalizeAll([
      input('view', 'definitions/views/1-a.json', v(1, 'a')),
      input('view', 'definitions/views/1-b.json', v(1, 'b')),
      input('screen', 'definitions/screens/1-s.json', screen(3, { formView: 1 }, { id: 1 })),
      input('screen', 'definitions/screens/1-t.json', screen(3, { formView: 1 }, { id: '1' })),
    ]);
    expect(withFiles(r.problems)).toEqual([
      ['definitions/views/1-b.json', 'E_DUPLICATE', '/id'],
      ['definitions/screens/1-t.json', 'E_DUPLICATE', '/id'],
    ]);
  });

  it('refuses two views with one componentName (their permission prefix), naming each file in the other', () => {
    const r = normalizeAll([
      input('view', 'definitions/views/22-truck.json', v(22, 'truck')),
      input('view', 'definitions/views/23-car.json', v(23, 'car')),
      input('view', 'definitions/views/170-truck2.json', v(170, 'truck')),
    ]);
    expect(withFiles(r.problems)).toEqual([
      ['definitions/views/22-truck.json', 'E_DUPLICATE', '/disMenu/componentName'],
      ['definitions/views/170-truck2.json', 'E_DUPLICATE', '/disMenu/componentName'],
    ]);
    expect(r.problems[0]?.message).toContain('definitions/views/170-truck2.json');
    expect(r.problems[1]?.message).toContain('definitions/views/22-truck.json');
    expect(r.problems[0]?.message).toContain('truck:add');
  });

  it('tells componentNames apart by letter case, as permissions are', () => {
    const r = normalizeAll([
      input('view', 'definitions/views/1-a.json', v(1, 'truck')),
      input('view', 'definitions/views/2-b.json', v(2, 'Truck')),
    ]);
    expect(r.problems).toEqual([]);
  });

  it('warns when a screen names a view that is not among the definitions', () => {
    const r = normalizeAll([
      input('view', 'definitions/views/1-a.json', v(1)),
      input('view', 'definitions/views/2-b.json', view(null, { id: 2 })),
      input('screen', 'definitions/screens/10-c.json', screen(4, { baseView: [1, 2, 3] }, { id: 10 })),
      input('screen', 'definitions/screens/11-f.json', screen(3, { formView: 3 }, { id: 11 })),
      input('screen', 'definitions/screens/12-f.json', screen(3, { formView: 1 }, { id: 12 })),
      input('screen', 'definitions/screens/13-l.json', screen(1, { baseView: 1 }, { id: 13 })),
      input('screen', 'definitions/screens/14-l.json', screen(1, { baseView: 4 }, { id: 14 })),
      input('screen', 'definitions/screens/15-b.json', screen(2, { layout: [] }, { id: 15 })),
    ]);
    expect(withFiles(r.problems)).toEqual([
      ['definitions/screens/10-c.json', 'W_REFERENCE', '/disTemplate/baseView'],
      ['definitions/screens/10-c.json', 'W_REFERENCE', '/disTemplate/baseView'],
      ['definitions/screens/11-f.json', 'W_REFERENCE', '/disTemplate/formView'],
      ['definitions/screens/14-l.json', 'W_REFERENCE', '/disTemplate/baseView'],
    ]);
    expect(r.pages.map((p) => p.kind)).toEqual(['list', 'container', 'form', 'form', 'container', 'container', 'bigScreen']);
    expect(r.skipped).toEqual([{ file: 'definitions/views/2-b.json', id: 2, reason: expect.any(String) }]);
  });

  const undesigned: Fixture<unknown, true>[] = [
    { name: 'null', in: null, out: true },
    { name: '""', in: '', out: true },
    { name: '"   "', in: '   ', out: true },
    { name: '"{}"', in: '{}', out: true },
    { name: '"null"', in: 'null', out: true },
    { name: '{}', in: {}, out: true },
    { name: 'absent', in: undefined, out: true },
  ];
  it.each(undesigned)('skips a definition whose disTemplate is $name, without a problem', ({ in: template }) => {
    const json = view(template, { id: 5 });
    if (template === undefined) delete json.disTemplate;
    for (const kind of ['view', 'screen'] as const) {
      const r = normalizeAll([input(kind, FILE, kind === 'view' ? json : { ...json, type: 2 })]);
      expect(r.problems).toEqual([]);
      expect(r.pages).toEqual([]);
      expect(r.skipped).toEqual([{ file: FILE, id: 5, reason: expect.any(String) }]);
    }
  });

  it('does not skip a template that is an empty list, or text that is not JSON', () => {
    expect(problemsOf(viewResult([]))).toEqual([['E_TYPE', '/disTemplate']]);
    expect(problemsOf(viewResult('{"tableOption":'))).toEqual([['E_JSON', '/disTemplate']]);
  });
});

describe('one bad value does not hide the others', () => {
  it('reports every problem of a definition in one run, each once, and derived ones not at all', () => {
    const r = viewResult({
      basicOption: { add: 'maybe', operationWidth: 'wide' },
      tableOption: [f('a', { width: 'abc' }), null, f('b')],
      formOption: [f('a', { required: 'yes', min: 'x', validator: 'qq' }), 7, f('b', { showRelation: { item: 'zz', value: 1 } })],
      formDividerOption: [null, { position: 'nope' }],
      btnDIYOption: [b0(), 'x', { name: 'v', configure: { action: 'view', view: 'abc' } }],
    });
    expect(r.page?.kind).toBe('list');
    expect(problemsOf(r)).toEqual(
      sorted([
        ['E_BOOLEAN', '/disTemplate/basicOption/add'],
        ['E_NUMBER', '/disTemplate/basicOption/operationWidth'],
        ['E_NUMBER', '/disTemplate/tableOption/0/configure/width'],
        ['E_TYPE', '/disTemplate/tableOption/1'],
        ['E_BOOLEAN', '/disTemplate/formOption/0/configure/required'],
        ['E_NUMBER', '/disTemplate/formOption/0/configure/min'],
        ['E_VALIDATOR', '/disTemplate/formOption/0/configure/validator'],
        ['E_TYPE', '/disTemplate/formOption/1'],
        ['E_REFERENCE', '/disTemplate/formOption/2/configure/showRelation/item'],
        ['E_TYPE', '/disTemplate/formDividerOption/0'],
        ['E_REFERENCE', '/disTemplate/formDividerOption/1/position'],
        ['E_TYPE', '/disTemplate/btnDIYOption/1'],
        ['E_NUMBER', '/disTemplate/btnDIYOption/2/configure/view'],
      ]),
    );
    const page = r.page as ListPageModel;
    expect(page.columns.map((c) => c.name)).toEqual(['a', 'b']);
    expect(page.buttons.map((x) => x.name)).toEqual(['ok', 'v']);
  });

  function b0() {
    return { name: 'ok', configure: { action: 'groovy' } };
  }

  it('reports disMenu that does not parse, not also its missing componentName', () => {
    const r = viewResult({ tableOption: [] }, { disMenu: '{"componentName":' });
    expect(problemsOf(r)).toEqual([['E_JSON', '/disMenu']]);
  });

  it('reports an id that is not a number, not also a missing id', () => {
    const r = viewResult({ tableOption: [] }, { id: 'abc', status: 'x' });
    expect(problemsOf(r)).toEqual(
      sorted([
        ['E_NUMBER', '/id'],
        ['E_NUMBER', '/status'],
      ]),
    );
  });

  it('reports null items in every screen list and goes on', () => {
    const r = screenResult(
      screen(2, {
        canvasConfigure: { themeColor: [null, { start: '#fff' }], basic: { defaultCol: 0 } },
        layout: [null, { i: 'a', chart: [null, { fileName: 'pie', configure: { private: { radiusInside: 90 } } }] }],
      }),
    );
    expect(r.problems).toEqual(
      sorted([
        ['E_TYPE', '/disTemplate/canvasConfigure/themeColor/0'],
        ['E_RANGE', '/disTemplate/canvasConfigure/basic/defaultCol'],
        ['E_TYPE', '/disTemplate/layout/0'],
        ['E_TYPE', '/disTemplate/layout/1/chart/0'],
        ['E_RANGE', '/disTemplate/layout/1/chart/1/configure/private/radiusInside'],
      ]),
    );
  });

  it('does not change its input', () => {
    const json = view({ tableOption: [null, f('a', { min: 'x' })] });
    const before = structuredClone(json);
    normalizeDefinition({ kind: 'view', file: FILE, json });
    expect(json).toEqual(before);
  });

  it('normalises a very large definition (5,000 fields, 2,000 buttons) in order', () => {
    const n = 5000;
    const fields = Array.from({ length: n }, (_, i) => f(`f${i}`, { sort: n - i, showRelation: { item: `f${(i + 1) % n}`, value: '1' } }));
    const buttons = Array.from({ length: 2000 }, (_, i) => ({ name: `b${i}`, configure: { action: 'groovy', sort: i % 3 } }));
    const { page, problems } = listPage(view({ tableOption: fields, btnDIYOption: buttons, formDividerOption: [{ position: n - 1 }] }));
    expect(problems).toEqual([]);
    expect(page.columns[0]?.name).toBe(`f${n - 1}`);
    expect(page.form.fields).toHaveLength(n);
    expect(page.form.dividers).toEqual([{ before: 'f0', title: '' }]);
    expect(page.buttons.slice(0, 2).map((x) => x.name)).toEqual(['b0', 'b3']);
  });

  it('takes a file that is not an object as one problem at the whole file', () => {
    for (const json of [null, [], 'x', 5])
      expect(problemsOf(normalizeDefinition({ kind: 'view', file: FILE, json }))).toEqual([['E_TYPE', '']]);
  });
});

// ----- determinism and fuzz over a real definition -----

const BASIC_VIEW = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../tests/fixtures/basic-view/definitions/views/101-stock-in.json'), 'utf8'),
) as Json;
const BIG_SCREEN = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../tests/fixtures/screens/definitions/screens/2-big-screen.json'), 'utf8'),
) as Json;

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reverseKeys(x)]),
    );
  return v;
}

describe('determinism', () => {
  it.each([
    ['view', BASIC_VIEW],
    ['screen', BIG_SCREEN],
  ] as const)('the %s model does not depend on the key order of the input', (kind, json) => {
    const a = normalizeDefinition({ kind, file: FILE, json });
    const b = normalizeDefinition({ kind, file: FILE, json: reverseKeys(json) });
    expect(a.page).toBeDefined();
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('reads embedded JSON text as the decoded object', () => {
    const wire = { ...BASIC_VIEW, disTemplate: JSON.stringify(BASIC_VIEW.disTemplate), disMenu: JSON.stringify(BASIC_VIEW.disMenu) };
    const a = normalizeDefinition({ kind: 'view', file: FILE, json: BASIC_VIEW });
    const b = normalizeDefinition({ kind: 'view', file: FILE, json: wire });
    expect(b.problems).toEqual([]);
    expect({ ...b.page, source: undefined }).toEqual({ ...a.page, source: undefined });
  });
});

/** mulberry32: a small seeded generator, so that a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Path = (string | number)[];

function paths(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) paths(x, [...at, i], out);
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  }
  if (at.length) out.push(at);
  return out;
}

const REPLACEMENTS = [() => null, () => '', () => [], () => ({}), () => 123, () => 'abc', () => true];

function mutate(json: Json, next: () => number): { json: Json; log: string[] } {
  const copy = structuredClone(json);
  const log: string[] = [];
  const count = 1 + Math.floor(next() * 4);
  for (let n = 0; n < count; n++) {
    const all = paths(copy);
    const path = all[Math.floor(next() * all.length)];
    if (!path) break;
    let parent: unknown = copy;
    for (const k of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[k];
    const last = path[path.length - 1] as string | number;
    const container = parent as Record<string | number, unknown>;
    const op = Math.floor(next() * (REPLACEMENTS.length + 1));
    if (op === REPLACEMENTS.length) {
      if (Array.isArray(container)) container.splice(Number(last), 1);
      else delete container[last];
      log.push(`delete /${path.join('/')}`);
    } else {
      const value = REPLACEMENTS[op]?.();
      container[last] = value;
      log.push(`/${path.join('/')} = ${JSON.stringify(value)}`);
    }
  }
  return { json: copy, log };
}

/**
 * Where a JSON pointer leads in the document (embedded JSON text is looked into): `found`, or
 * `missing` when it stops at an object that lacks the next key, or `wrong` (an index past the end,
 * a key into text or a number).
 */
function walk(doc: unknown, pointer: string): 'found' | 'missing' | 'wrong' {
  if (pointer === '') return 'found';
  let v = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof v === 'string') {
      try {
        v = JSON.parse(v);
      } catch {
        return 'wrong';
      }
    }
    if (v === null || typeof v !== 'object') return 'wrong';
    if (!Object.hasOwn(v, key)) return Array.isArray(v) ? 'wrong' : 'missing';
    v = (v as Record<string, unknown>)[key];
  }
  return 'found';
}

const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));

/**
 * A problem's pointer names a place in the file, or a missing key of a place that exists. A required
 * key is named even when its parent is missing too (`/disMenu/componentName` without disMenu), as the
 * golden fixture error-json expects; it must still branch off the file at an object.
 */
function pointsIntoFile(doc: unknown, p: Problem): boolean {
  if (walk(doc, p.pointer) === 'found' || walk(doc, parentOf(p.pointer)) === 'found') return true;
  return p.code === 'E_REQUIRED' && walk(doc, p.pointer) === 'missing';
}

describe('fuzz', () => {
  const cases = [
    { kind: 'view' as const, json: BASIC_VIEW, seed: 20240611, runs: 400 },
    { kind: 'screen' as const, json: BIG_SCREEN, seed: 7, runs: 200 },
  ];
  it.each(cases)(
    '$kind: random damage never throws, and every problem has a known code and a real pointer',
    ({ kind, json, seed, runs }) => {
      const next = random(seed);
      const failures: string[] = [];
      let withProblems = 0;
      for (let run = 0; run < runs; run++) {
        const { json: damaged, log } = mutate(json, next);
        const before = JSON.stringify(damaged);
        let r: NormalizeResult;
        try {
          r = normalizeDefinition({ kind, file: FILE, json: damaged });
        } catch (e) {
          failures.push(`run ${run} [${log.join('; ')}]: threw ${e instanceof Error ? e.stack : String(e)}`);
          continue;
        }
        if (JSON.stringify(damaged) !== before) failures.push(`run ${run} [${log.join('; ')}]: changed its input`);
        if (r.problems.length) withProblems++;
        if (!r.page && !r.skipped && !r.problems.some((p) => p.code.startsWith('E_')))
          failures.push(`run ${run} [${log.join('; ')}]: no page, no reason`);
        const seen = new Set<string>();
        for (const p of r.problems) {
          const where = `run ${run} [${log.join('; ')}]: ${p.code} ${p.pointer}`;
          if (!Object.hasOwn(CODES, p.code)) failures.push(`${where}: unknown code`);
          if (p.file !== FILE || !p.message) failures.push(`${where}: no file or message`);
          if (!pointsIntoFile(damaged, p)) failures.push(`${where}: pointer resolves to nothing`);
          // One pointer may carry two problems (a relation naming two missing fields), never one twice.
          const identity = JSON.stringify([p.code, p.pointer, p.message]);
          if (seen.has(identity)) failures.push(`${where}: reported twice`);
          seen.add(identity);
        }
      }
      expect(failures).toEqual([]);
      // The damage must reach the normaliser, or this test proves nothing.
      expect(withProblems).toBeGreaterThan(runs / 4);
    },
  );
});
