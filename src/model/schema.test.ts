import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { normalizeDefinition } from './normalize.js';
import {
  type AnyFieldSchema,
  applyRule,
  buildSchema,
  currentShow,
  decimalPlaces,
  fieldRule,
  fieldRules,
  type RuleCall,
  relationsOf,
  rules,
  submittedFields,
} from './schema.js';
import type { FieldModel, FormModel, ListPageModel } from './types.js';
import { VALIDATOR_NAMES, VALIDATORS, type ValidatorName } from './validators.js';

const NONE = { show: [], required: [] };

/** Messages of a failed parse, or [] when it passes. */
function messages(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

function issues(schema: z.ZodType, value: unknown): { path: PropertyKey[]; message: string }[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

function parsed(schema: z.ZodType, value: unknown): unknown {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(`expected ${JSON.stringify(value)} to pass, got ${r.error.issues.map((i) => i.message).join('; ')}`);
  return r.data;
}

function fieldModel(over: Partial<FieldModel> & { name: string }): FieldModel {
  return { label: over.name, dataType: 'varchar', kind: 'text', show: 1, required: false, disabled: false, editLock: false, ...over };
}

const dialog: FormModel['dialog'] = { width: '50%', labelWidth: 100, inline: false, key: 'id', initGroovy: false };
const formModel = (fields: FieldModel[]): FormModel => ({ fields, dividers: [], dialog });

describe('rules.text', () => {
  const required = rules.text({ label: '入库单号', required: true, maxLength: 255 });
  const optional = rules.text({ label: '备注', maxLength: 10 });

  it.each([[''], ['   '], [null], [undefined], [[]]])('reports %j as missing when required', (v) => {
    expect(messages(required, v)).toEqual(['请输入入库单号']);
  });

  it('reports a required field whose key is absent', () => {
    const form = rules.form({ stockNo: required }, NONE);
    expect(issues(form, {})).toEqual([{ path: ['stockNo'], message: '请输入入库单号' }]);
  });

  it('lets optional empties pass: absent stays absent, other empties become null, never ""', () => {
    const form = rules.form({ note: optional }, NONE);
    expect(parsed(form, {})).toEqual({});
    expect('note' in (parsed(form, {}) as object)).toBe(false);
    for (const v of ['', '  ', null, []]) expect(parsed(form, { note: v })).toEqual({ note: null });
  });

  it('keeps text as typed and reads numbers and lists as text', () => {
    expect(parsed(required, ' A-1 ')).toBe(' A-1 ');
    expect(parsed(required, 12)).toBe('12');
    expect(parsed(required, ['a', 2])).toBe('a,2');
  });

  it('refuses values that are not text', () => {
    expect(messages(required, { a: 1 })).toEqual(['入库单号格式不正确，应为文本']);
  });

  it('limits the length with the server message', () => {
    expect(messages(optional, 'x'.repeat(10))).toEqual([]);
    expect(messages(optional, 'x'.repeat(11))).toEqual(['备注长度不能超过10个字符']);
    expect(messages(required, '入'.repeat(256))).toEqual(['入库单号长度不能超过255个字符']);
  });

  it('checks a pattern on non-empty values only', () => {
    const code = rules.text({ label: '编码', pattern: '^[A-Z]{2}\\d+$' });
    expect(messages(code, 'AB12')).toEqual([]);
    expect(messages(code, 'ab12')).toEqual(['编码格式不正确，应为（2位大写字母）（数字）']);
    expect(messages(code, '')).toEqual([]);
    expect(messages(rules.text({ label: '编码', required: true, pattern: '^\\d+$' }), '')).toEqual(['请输入编码']);
  });

  it('ignores an invalid pattern (the normaliser reports it as E_PATTERN)', () => {
    expect(messages(rules.text({ label: '编码', pattern: '([' }), 'anything')).toEqual([]);
  });

  it('reports the length before the pattern, and the pattern before the validator', () => {
    const s = rules.text({ label: '手机', maxLength: 3, pattern: '^9', validator: 'mobile' });
    expect(messages(s, '13800138000')).toEqual(['手机长度不能超过3个字符']);
    expect(messages(rules.text({ label: '手机', pattern: '^9', validator: 'mobile' }), '13800138000')).toEqual(['手机格式不正确，应为9']);
  });
});

describe('named validators', () => {
  const samples: Record<ValidatorName, { ok: string; bad: string }> = {
    mobile: { ok: '13800138000', bad: '12800138000' },
    mobileList: { ok: '13800138000, 15912345678', bad: '13800138000,1234' },
    phone: { ok: '12800138000', bad: '11800138000' },
    landline: { ok: '010-1234567', bad: '10-1234567' },
    phoneOrLandline: { ok: '0571-87654321', bad: '123456' },
    email: { ok: 'a.b+c@example.com.cn', bad: 'a@b' },
    idCard: { ok: '11010519491231002X', bad: '110105194912310021' },
    ipv4: { ok: '192.168.0.255', bad: '192.168.0.256' },
    url: { ok: 'https://example.com/a?b=1', bad: 'example.com' },
    externalLink: { ok: 'mailto:a@b.c', bad: 'ftp://x' },
    lowercase: { ok: 'abc', bad: 'aBc' },
    uppercase: { ok: 'ABC', bad: 'AbC' },
    letters: { ok: 'AbC', bad: 'Ab1' },
    username: { ok: 'editor', bad: 'bob' },
  };

  it('has a sample for every validator', () => {
    expect(Object.keys(samples).sort()).toEqual(VALIDATOR_NAMES);
  });

  it.each(VALIDATOR_NAMES)('%s passes its good sample, fails its bad one with its message, and skips empties', (name) => {
    const s = rules.text({ label: '值', validator: name });
    expect(messages(s, samples[name].ok)).toEqual([]);
    expect(messages(s, samples[name].bad)).toEqual([VALIDATORS[name].message]);
    expect(messages(s, '')).toEqual([]);
    expect(messages(s, null)).toEqual([]);
  });

  it('answers with the fixed Chinese message of each validator', () => {
    expect(messages(rules.text({ label: '身份证', validator: 'idCard' }), '110105194912310021')).toEqual(['身份证号码格式不正确']);
    expect(messages(rules.text({ label: '手机', validator: 'mobile' }), '1')).toEqual(['手机号格式错误']);
    expect(messages(rules.text({ label: '邮箱', validator: 'email' }), 'x')).toEqual(['电子邮箱格式不正确']);
  });

  it('checks the id-card date and both lengths', () => {
    const s = rules.text({ label: '身份证', validator: 'idCard' });
    expect(messages(s, '11010519491231002x')).toEqual([]);
    expect(messages(s, '110105491231002')).toEqual([]);
    expect(messages(s, '110105491331002')).toEqual(['身份证号码格式不正确']);
  });
});

describe('rules.number', () => {
  const quantity = rules.number({ label: '数量', required: true, min: 0, max: 100, decimals: 3 });
  const count = rules.number({ label: '件数', integer: true });

  it('coerces numeric text and keeps numbers', () => {
    expect(parsed(quantity, '12.5')).toBe(12.5);
    expect(parsed(quantity, ' 7 ')).toBe(7);
    expect(parsed(quantity, 0)).toBe(0);
    expect(parsed(count, '-3')).toBe(-3);
  });

  it.each([['abc'], ['1e3'], ['12,5'], [Number.NaN], [Number.POSITIVE_INFINITY], [true], [{}]])('refuses %s as not a number', (v) => {
    expect(messages(quantity, v)).toEqual(['数量必须为数字']);
  });

  it('reports missing values and passes optional ones as null', () => {
    for (const v of ['', ' ', null, undefined]) expect(messages(quantity, v)).toEqual(['请输入数量']);
    expect(parsed(count, '')).toBeNull();
    expect(parsed(count, undefined)).toBeUndefined();
  });

  it('checks the minimum and maximum with the spaced messages', () => {
    expect(messages(quantity, -0.001)).toEqual(['最小值不能小于 0']);
    expect(messages(quantity, '100.001')).toEqual(['最大值不能大于 100']);
    expect(messages(quantity, 100)).toEqual([]);
    expect(messages(rules.number({ label: '温度', min: -10.5 }), -11)).toEqual(['最小值不能小于 -10.5']);
  });

  it('checks integers', () => {
    expect(messages(count, 2)).toEqual([]);
    expect(messages(count, '2.5')).toEqual(['件数必须为整数']);
  });

  it('checks decimals', () => {
    expect(messages(quantity, '1.125')).toEqual([]);
    expect(messages(quantity, '1.1250')).toEqual([]);
    expect(messages(quantity, 1.1255)).toEqual(['数量最多保留3位小数']);
    expect(messages(rules.number({ label: '单价', decimals: 0 }), 1.5)).toEqual(['单价最多保留0位小数']);
  });

  it('counts decimal places in exponent form too', () => {
    expect(decimalPlaces(12)).toBe(0);
    expect(decimalPlaces(-1.25)).toBe(2);
    expect(decimalPlaces(1.5e-7)).toBe(8);
    expect(decimalPlaces(1e21)).toBe(0);
  });
});

describe('rules.datetime', () => {
  const inTime = rules.datetime({ label: '入库时间', required: true });
  const outTime = rules.datetime({ label: '出库时间' });

  it('keeps a real date or date-time as given, text or epoch milliseconds', () => {
    for (const v of ['2026-01-05', '2026-01-05 09:30', '2026-01-05 09:30:00', '2026-01-05T09:30:00.250', ' 2026-1-5 ', 1767605400000])
      expect(parsed(inTime, v)).toBe(v);
    expect(parsed(inTime, '2024-02-29')).toBe('2024-02-29');
  });

  it.each([
    ['2026-02-30'],
    ['2025-02-29'],
    ['2026-13-01'],
    ['2026-01-05 24:00:00'],
    ['2026-01-05 09:60'],
    ['tomorrow'],
    ['05/01/2026'],
    [true],
    [{}],
    [['2026-01-05']],
    [Number.NaN],
  ])('refuses %s with the date message', (v) => {
    expect(messages(inTime, v)).toEqual(['入库时间格式应为 YYYY-MM-DD HH:mm:ss']);
  });

  it('reports missing values and passes optional ones as null', () => {
    for (const v of ['', ' ', null, undefined]) expect(messages(inTime, v)).toEqual(['请选择入库时间']);
    expect(parsed(outTime, '')).toBeNull();
    expect(parsed(outTime, undefined)).toBeUndefined();
    expect(messages(outTime, '2026-02-30')).toEqual(['出库时间格式应为 YYYY-MM-DD HH:mm:ss']);
  });
});

describe('rules.files', () => {
  const one = rules.files({ label: '附件', required: true, maxCount: 1 });
  const two = rules.files({ label: '照片', maxCount: 2 });
  const file = { name: 'a.pdf', url: '/files/a.pdf' };

  it('takes the JSON list text as it is, and stringifies a list', () => {
    expect(parsed(one, JSON.stringify([file]))).toBe(JSON.stringify([file]));
    expect(parsed(one, [file])).toBe(JSON.stringify([file]));
    expect(parsed(two, ['/files/a.png', '/files/b.png'])).toBe('["/files/a.png","/files/b.png"]');
  });

  it('reads comma-separated paths stored before the JSON form as a list', () => {
    expect(parsed(two, '/files/a.png,/files/b.png')).toBe('["/files/a.png","/files/b.png"]');
    expect(messages(one, '/files/a.png,/files/b.png')).toEqual(['文件数量超过限定个数']);
  });

  it('counts files against maxCount', () => {
    expect(messages(two, [file, file])).toEqual([]);
    expect(messages(two, [file, file, file])).toEqual(['文件数量超过限定个数']);
    expect(messages(one, JSON.stringify([file, file]))).toEqual(['文件数量超过限定个数']);
  });

  it('reports an empty list as missing', () => {
    for (const v of ['', '[]', ' [ ] ', [], null, undefined]) expect(messages(one, v)).toEqual(['请上传附件']);
    expect(parsed(two, '[]')).toBeNull();
  });

  it('refuses what is not a list of files', () => {
    expect(messages(one, '[broken')).toEqual(['附件格式不正确，应为上传文件的列表']);
    expect(messages(one, '{"a":1}x')).toEqual([]); // one legacy path, however odd
    expect(messages(one, [1])).toEqual(['附件格式不正确，应为上传文件的列表']);
    expect(messages(one, 42)).toEqual(['附件格式不正确，应为上传文件的列表']);
  });
});

describe('rules.form relations', () => {
  const schema = rules.form(
    {
      needCar: rules.text({ label: '是否用车', required: true }),
      plateNo: rules.text({ label: '车牌号', maxLength: 8, pattern: '^[\\u4e00-\\u9fa5][A-Z]' }),
      driver: rules.text({ label: '司机' }),
      weight: rules.number({ label: '重量', min: 0 }),
      urgent: rules.text({ label: '加急' }),
      reason: rules.text({ label: '加急原因' }),
    },
    {
      show: [{ trigger: 'needCar', value: '1', fields: ['plateNo', 'driver', 'weight'] }],
      required: [
        { trigger: 'needCar', value: '1', fields: ['plateNo'] },
        { trigger: 'urgent', value: 'true', fields: ['reason', 'weight'] },
      ],
    },
  );

  it('drops hidden fields before checking them, whatever they hold', () => {
    const out = parsed(schema, { needCar: '0', plateNo: 'x'.repeat(50), driver: { junk: true }, weight: 'heavy' });
    expect(out).toEqual({ needCar: '0' });
  });

  it('checks shown fields, and requires them while a required rule matches', () => {
    expect(issues(schema, { needCar: '1', plateNo: 'x'.repeat(50), weight: 'heavy' })).toEqual([
      { path: ['plateNo'], message: '车牌号长度不能超过8个字符' },
      { path: ['weight'], message: '重量必须为数字' },
    ]);
    expect(issues(schema, { needCar: 1 })).toEqual([{ path: ['plateNo'], message: '请输入车牌号' }]);
    expect(issues(schema, { needCar: '1', plateNo: '  ' })).toEqual([{ path: ['plateNo'], message: '请输入车牌号' }]);
    expect(parsed(schema, { needCar: '1', plateNo: '沪A12345', driver: '' })).toEqual({ needCar: '1', plateNo: '沪A12345', driver: null });
  });

  it('applies a required rule whose trigger is compared as text', () => {
    expect(issues(schema, { needCar: '0', urgent: true })).toEqual([{ path: ['reason'], message: '请输入加急原因' }]);
    expect(issues(schema, { needCar: '0', urgent: 'true', reason: '急' })).toEqual([]);
    expect(issues(schema, { needCar: '0', urgent: 'TRUE' })).toEqual([]);
  });

  it('never requires a hidden field', () => {
    // weight is named by the matching urgent rule, but needCar hides it.
    expect(issues(schema, { needCar: '0', urgent: 'true', reason: '急' })).toEqual([]);
    expect(issues(schema, { needCar: '1', plateNo: '沪A1', urgent: 'true', reason: '急' })).toEqual([
      { path: ['weight'], message: '请输入重量' },
    ]);
  });

  it('reports every field in field order, relation messages included', () => {
    expect(issues(schema, { needCar: '', urgent: 'true', weight: -1 })).toEqual([
      { path: ['needCar'], message: '请输入是否用车' },
      { path: ['reason'], message: '请输入加急原因' },
    ]);
    expect(issues(schema, { needCar: '1', urgent: 'true', reason: '急', weight: -1 }).map((i) => i.path[0])).toEqual(['plateNo', 'weight']);
  });

  it('shows a field while any of its show rules matches', () => {
    const s = rules.form(
      { a: rules.text({ label: 'A' }), b: rules.text({ label: 'B' }), x: rules.number({ label: 'X' }) },
      {
        show: [
          { trigger: 'a', value: '1', fields: ['x'] },
          { trigger: 'b', value: '1', fields: ['x'] },
        ],
        required: [],
      },
    );
    expect(messages(s, { a: '0', b: '1', x: 'bad' })).toEqual(['X必须为数字']);
    expect(parsed(s, { a: '0', b: '0', x: 'bad' })).toEqual({ a: '0', b: '0' });
  });

  it('reads triggers that are not fields of the schema from the input', () => {
    const s = rules.form({ x: rules.text({ label: 'X' }) }, { show: [{ trigger: 'status', value: '2', fields: ['x'] }], required: [] });
    expect(parsed(s, { status: 2, x: 'v' })).toEqual({ x: 'v' });
    expect(parsed(s, { x: 'v' })).toEqual({});
  });

  it('strips keys that are not fields and refuses input that is not an object', () => {
    expect(parsed(schema, { needCar: '0', id: 9 })).toEqual({ needCar: '0' });
    expect(schema.safeParse(null).success).toBe(false);
    expect(schema.safeParse('x').success).toBe(false);
  });

  it('exposes the field schemas and relations', () => {
    expect(messages(schema.shape.weight, 'x')).toEqual(['重量必须为数字']);
    expect(schema.relations.show[0]?.trigger).toBe('needCar');
  });
});

describe('model → rule calls', () => {
  const fields = [
    fieldModel({ name: 'stockNo', label: '入库单号', required: true, maxLength: 255 }),
    fieldModel({ name: 'quantity', label: '数量', dataType: 'decimal', kind: 'decimal', required: true, min: 0, max: 1000, decimals: 3 }),
    fieldModel({ name: 'pieces', label: '件数', dataType: 'long', kind: 'long', min: 1, step: 1 }),
    fieldModel({ name: 'phone', label: '联系电话', maxLength: 255, validator: 'mobile' }),
    fieldModel({ name: 'code', label: '编码', kind: 'textarea', pattern: '^\\d+$', rows: 3 }),
    fieldModel({ name: 'wasteType', label: '废物类别', kind: 'dict', dict: 'waste_type', required: true }),
    fieldModel({ name: 'inTime', label: '入库时间', dataType: 'datetime', kind: 'datetime', timeFormat: 'YYYY-MM-DD' }),
    fieldModel({
      name: 'photos',
      label: '照片',
      kind: 'image',
      required: true,
      upload: { image: true, accept: ['jpg'], maxCount: 3 },
    }),
    fieldModel({
      name: 'needCar',
      label: '是否用车',
      kind: 'dict',
      dict: 'yes_no',
      showRelation: { fields: ['plateNo', 'remark'], value: '1' },
    }),
    fieldModel({ name: 'plateNo', label: '车牌号', required: true, maxLength: 255 }),
    fieldModel({ name: 'remark', label: '备注', maxLength: 255, show: 2 }),
    fieldModel({ name: 'urgent', label: '加急', requiredRelation: { fields: ['reason'], value: 'true' } }),
    fieldModel({ name: 'reason', label: '原因', maxLength: 255 }),
    fieldModel({ name: 'creator', label: '创建人', show: 3, required: true }),
    fieldModel({ name: 'secret', label: '内部', show: 4 }),
  ];
  const form = formModel(fields);
  const call = (name: string) => fieldRule(fields.find((f) => f.name === name)!, form);

  it('maps each kind to its builder with ordered, short options', () => {
    expect(call('stockNo')).toEqual({ rule: 'text', options: { label: '入库单号', required: true, maxLength: 255 } });
    expect(call('quantity')).toEqual({ rule: 'number', options: { label: '数量', required: true, decimals: 3, max: 1000, min: 0 } });
    expect(call('pieces')).toEqual({ rule: 'number', options: { label: '件数', integer: true, min: 1 } });
    expect(call('phone')).toEqual({ rule: 'text', options: { label: '联系电话', maxLength: 255, validator: 'mobile' } });
    expect(call('code')).toEqual({ rule: 'text', options: { label: '编码', pattern: '^\\d+$' } });
    expect(call('wasteType')).toEqual({ rule: 'text', options: { label: '废物类别', required: true, choice: true } });
    expect(call('inTime')).toEqual({ rule: 'datetime', options: { label: '入库时间', format: 'YYYY-MM-DD' } });
    expect(call('photos')).toEqual({ rule: 'files', options: { label: '照片', required: true, maxCount: 3 } });
  });

  it('prints keys as label, required, then alphabetically', () => {
    expect(Object.keys(call('quantity').options)).toEqual(['label', 'required', 'decimals', 'max', 'min']);
    expect(Object.keys(call('phone').options)).toEqual(['label', 'maxLength', 'validator']);
    expect(Object.keys(call('photos').options)).toEqual(['label', 'required', 'maxCount']);
  });

  it('defaults an upload without rules to one file', () => {
    expect(fieldRule(fieldModel({ name: 'f', label: 'F', kind: 'file' }), form)).toEqual({
      rule: 'files',
      options: { label: 'F', maxCount: 1 },
    });
  });

  it('emits a field a showRelation names as optional, and makes it required while shown', () => {
    expect(call('plateNo')).toEqual({ rule: 'text', options: { label: '车牌号', maxLength: 255 } });
    expect(relationsOf(form)).toEqual({
      show: [{ trigger: 'needCar', value: '1', fields: ['plateNo', 'remark'] }],
      required: [
        { trigger: 'needCar', value: '1', fields: ['plateNo'] },
        { trigger: 'urgent', value: 'true', fields: ['reason'] },
      ],
    });
  });

  it('submits show 1 and 2 only', () => {
    expect(submittedFields(form).map((f) => f.name)).not.toContain('creator');
    expect(submittedFields(form).map((f) => f.name)).not.toContain('secret');
    expect(submittedFields(form).map((f) => f.name)).toContain('remark');
    expect(fieldRules(form).map(([name]) => name)).toEqual(submittedFields(form).map((f) => f.name));
    expect(Object.keys(buildSchema(form).shape)).toEqual(submittedFields(form).map((f) => f.name));
    expect(parsed(buildSchema(form), validRecord())).not.toHaveProperty('creator');
  });

  const validRecord = () => ({
    stockNo: 'RK-1',
    quantity: '1.5',
    wasteType: 'HW08',
    photos: [{ name: 'a.jpg', url: '/a.jpg' }],
    needCar: '0',
    creator: 'admin',
    secret: 's',
  });

  // What the generator prints for this form, written out by hand.
  const handWritten = rules.form(
    {
      stockNo: rules.text({ label: '入库单号', required: true, maxLength: 255 }),
      quantity: rules.number({ label: '数量', required: true, decimals: 3, max: 1000, min: 0 }),
      pieces: rules.number({ label: '件数', integer: true, min: 1 }),
      phone: rules.text({ label: '联系电话', maxLength: 255, validator: 'mobile' }),
      code: rules.text({ label: '编码', pattern: '^\\d+$' }),
      wasteType: rules.text({ label: '废物类别', required: true, choice: true }),
      inTime: rules.datetime({ label: '入库时间', format: 'YYYY-MM-DD' }),
      photos: rules.files({ label: '照片', required: true, maxCount: 3 }),
      needCar: rules.text({ label: '是否用车' }),
      plateNo: rules.text({ label: '车牌号', maxLength: 255 }),
      remark: rules.text({ label: '备注', maxLength: 255 }),
      urgent: rules.text({ label: '加急' }),
      reason: rules.text({ label: '原因', maxLength: 255 }),
    },
    {
      show: [{ trigger: 'needCar', value: '1', fields: ['plateNo', 'remark'] }],
      required: [
        { trigger: 'needCar', value: '1', fields: ['plateNo'] },
        { trigger: 'urgent', value: 'true', fields: ['reason'] },
      ],
    },
  );

  it('prints calls that are exactly the hand-written schema', () => {
    const printed = fieldRules(form).map(([name, c]) => `${name}: rules.${c.rule}(${JSON.stringify(c.options)})`);
    expect(printed).toContain('quantity: rules.number({"label":"数量","required":true,"decimals":3,"max":1000,"min":0})');
    expect(printed).toHaveLength(Object.keys(handWritten.shape).length);
  });

  const samples: Record<string, unknown>[] = [
    validRecord(),
    {},
    { ...validRecord(), quantity: 'abc', pieces: 1.5, phone: '123', code: '12a', inTime: '' },
    { ...validRecord(), quantity: '1.0001', pieces: 0, photos: '[{"a":1},{"b":2},{"c":3},{"d":4}]' },
    { ...validRecord(), quantity: 1001, stockNo: 'x'.repeat(256), photos: '[]' },
    { ...validRecord(), needCar: '1' },
    { ...validRecord(), needCar: 1, plateNo: '沪A1', remark: '', urgent: 'true' },
    { ...validRecord(), needCar: '0', plateNo: { junk: 1 }, remark: 'x'.repeat(999), urgent: 'true', reason: '急' },
    { ...validRecord(), phone: '13800138000', code: '123', inTime: '2024-01-02', pieces: '3' },
    { ...validRecord(), inTime: '2024-02-30' },
  ];

  it.each(samples.map((s, i) => [i, s] as const))(
    'gives the same verdict and messages as the hand-written schema (sample %i)',
    (_, sample) => {
      const built = buildSchema(form).safeParse(sample);
      const hand = handWritten.safeParse(sample);
      expect(built.success).toBe(hand.success);
      expect(built.data).toEqual(hand.data);
      expect(built.error?.issues.map((i) => [i.path, i.message])).toEqual(hand.error?.issues.map((i) => [i.path, i.message]));
    },
  );

  it('finds problems in the samples (so the parity above compares something)', () => {
    expect(samples.filter((s) => !handWritten.safeParse(s).success)).toHaveLength(7);
    expect(issues(handWritten, samples[9])).toEqual([{ path: ['inTime'], message: '入库时间格式应为 YYYY-MM-DD' }]);
    expect(messages(handWritten, samples[5])).toEqual(['请输入车牌号']);
    expect(parsed(handWritten, samples[7])).not.toHaveProperty('plateNo');
    expect(issues(handWritten, samples[6])).toEqual([{ path: ['reason'], message: '请输入原因' }]);
    expect(messages(handWritten, samples[3])).toEqual(['数量最多保留3位小数', '最小值不能小于 1', '文件数量超过限定个数']);
  });

  it('applies every kind of call', () => {
    const calls: RuleCall[] = [
      { rule: 'text', options: { label: 'T', required: true } },
      { rule: 'number', options: { label: 'N', required: true } },
      { rule: 'datetime', options: { label: 'D', required: true } },
      { rule: 'files', options: { label: 'F', required: true, maxCount: 1 } },
    ];
    expect(calls.map((c) => messages(applyRule(c), ''))).toEqual([['请输入T'], ['请输入N'], ['请选择D'], ['请上传F']]);
    expect(calls.map((c) => messages(applyRule(c), 'x'))).toEqual([[], ['N必须为数字'], ['D日期格式应为 YYYY-MM-DD HH:mm:ss'], []]);
  });
});

describe('types', () => {
  it('infers the record type from the builders', () => {
    const stockInSchema = rules.form(
      {
        stockNo: rules.text({ label: '入库单号', required: true, maxLength: 255 }),
        quantity: rules.number({ label: '数量', required: true, min: 0, decimals: 3 }),
        phone: rules.text({ label: '联系电话', maxLength: 255, validator: 'mobile' }),
        photos: rules.files({ label: '照片', maxCount: 2 }),
        pieces: rules.number({ label: '件数', required: false, integer: true }),
      },
      { show: [{ trigger: 'needCar', value: '1', fields: ['plateNo'] }], required: [] },
    );
    type StockInRecord = z.infer<typeof stockInSchema>;
    expectTypeOf<StockInRecord>().toEqualTypeOf<{
      stockNo: string;
      quantity: number;
      phone?: string | null | undefined;
      photos?: string | null | undefined;
      pieces?: number | null | undefined;
    }>();
    expectTypeOf(parsed(stockInSchema, { stockNo: 'a', quantity: 1 }) as StockInRecord)
      .toHaveProperty('stockNo')
      .toEqualTypeOf<string>();
  });

  it('types a rule call from plain data as optional, since its required is only a boolean', () => {
    expectTypeOf(applyRule).returns.toEqualTypeOf<AnyFieldSchema>();
    const o = { label: 'x', required: true as boolean };
    expectTypeOf<z.output<ReturnType<typeof rules.text<typeof o>>>>().toEqualTypeOf<string | null | undefined>();
    // @ts-expect-error validator names are checked
    rules.text({ label: 'x', validator: 'nope' });
  });
});

describe('with the normaliser', () => {
  /** The list page of a view definition with this id, name and component, normalised without errors. */
  function listPageOf(id: number, name: string, componentName: string, template: Record<string, unknown>): ListPageModel {
    const r = normalizeDefinition({
      kind: 'view',
      file: 'x.json',
      json: { id, name, status: 1, disMenu: { componentName, name }, disTemplate: template },
    });
    expect(r.problems.filter((p) => p.code.startsWith('E_'))).toEqual([]);
    expect(r.page?.kind).toBe('list');
    return r.page as ListPageModel;
  }

  it('builds the schema of a normalised view definition', () => {
    const page = listPageOf(12, '危废入库', 'stockIn', {
      basicOption: { add: true, edit: '1' },
      tableOption: [{ name: 'stockNo', chName: '入库单号', dataType: 'varchar' }],
      formOption: [
        { name: 'stockNo', chName: '入库单号', dataType: 'varchar', configure: { sort: 1, required: 1 } },
        { name: 'quantity', chName: '数量', dataType: 'decimal', configure: { sort: 2, required: 'true', min: '0', decimals: 3 } },
        { name: 'phone', chName: '联系电话', dataType: 'varchar', configure: { sort: 3, validator: 'mobile' } },
        {
          name: 'needCar',
          chName: '是否用车',
          dataType: 'varchar',
          configure: { sort: 4, dict: 'yes_no', showRelation: { item: 'plateNo', value: '1' } },
        },
        { name: 'plateNo', chName: '车牌号', dataType: 'varchar', configure: { sort: 5, required: true } },
        { name: 'note', chName: '说明', dataType: 'varchar', configure: { sort: 6, textarea: true } },
        { name: 'files', chName: '附件', dataType: 'varchar', configure: { sort: 7, file: 'file', fileSize: '2' } },
        { name: 'pieces', chName: '件数', dataType: 'long', configure: { sort: 8, max: 99 } },
        { name: 'creator', chName: '创建人', dataType: 'varchar', configure: { sort: 9, show: 3 } },
      ],
    });
    const form = page.form;
    expect(Object.fromEntries(fieldRules(form))).toEqual({
      stockNo: { rule: 'text', options: { label: '入库单号', required: true, maxLength: 255 } },
      quantity: { rule: 'number', options: { label: '数量', required: true, decimals: 3, min: 0 } },
      phone: { rule: 'text', options: { label: '联系电话', maxLength: 255, validator: 'mobile' } },
      needCar: { rule: 'text', options: { label: '是否用车', choice: true } },
      plateNo: { rule: 'text', options: { label: '车牌号', maxLength: 255 } },
      note: { rule: 'text', options: { label: '说明', maxLength: 1024 } },
      files: { rule: 'files', options: { label: '附件', maxCount: 2 } },
      pieces: { rule: 'number', options: { label: '件数', integer: true, max: 99 } },
    });
    expect(relationsOf(form)).toEqual({
      show: [{ trigger: 'needCar', value: '1', fields: ['plateNo'] }],
      required: [{ trigger: 'needCar', value: '1', fields: ['plateNo'] }],
    });

    const schema = buildSchema(form);
    expect(parsed(schema, { stockNo: 'RK-1', quantity: '2.125', needCar: '0', plateNo: 42, note: '', creator: 'x' })).toEqual({
      stockNo: 'RK-1',
      quantity: 2.125,
      needCar: '0',
      note: null,
    });
    expect(issues(schema, { stockNo: ' ', quantity: '2.1255', phone: '123', needCar: '1', note: 'x'.repeat(1025), pieces: 100 })).toEqual([
      { path: ['stockNo'], message: '请输入入库单号' },
      { path: ['quantity'], message: '数量最多保留3位小数' },
      { path: ['phone'], message: '手机号格式错误' },
      { path: ['plateNo'], message: '请输入车牌号' },
      { path: ['note'], message: '说明长度不能超过1024个字符' },
      { path: ['pieces'], message: '最大值不能大于 99' },
    ]);
    expect(messages(schema, { stockNo: 'a', quantity: 1, files: '["a","b","c"]' })).toEqual(['文件数量超过限定个数']);
  });

  it('shows a show 2 or show 3 field a long dictionary trigger names while it holds the value, editable in an editable form', () => {
    const page = listPageOf(14, '车辆', 'vehicle', {
      basicOption: { add: true, edit: true },
      tableOption: [{ name: 'plateNo', chName: '车牌号', dataType: 'varchar' }],
      formOption: [
        { name: 'plateNo', chName: '车牌号', dataType: 'varchar', configure: { sort: 1, required: true } },
        {
          name: 'carType',
          chName: '车辆类型',
          dataType: 'long',
          configure: { sort: 2, dict: 'car_type', showRelation: { item: 'permitNo,note', value: 1 } },
        },
        { name: 'permitNo', chName: '危运证号', dataType: 'varchar', configure: { sort: 3, show: 2, required: true } },
        { name: 'note', chName: '备注', dataType: 'varchar', configure: { sort: 4, show: 3 } },
        { name: 'code', chName: '内部编码', dataType: 'varchar', configure: { sort: 5, show: 2 } },
      ],
    });
    const form = page.form;
    const relations = relationsOf(form);
    const field = (name: string) => form.fields.find((f) => f.name === name)!;
    const showOf = (name: string, values: Record<string, unknown>, readOnly = false) =>
      currentShow(field(name), relations, values, readOnly);
    // The trigger holds the value (as the form keeps it, and as the record stores it).
    expect(showOf('permitNo', { carType: '1' })).toBe(1);
    expect(showOf('permitNo', { carType: 1 })).toBe(1);
    expect(showOf('permitNo', { carType: 1 }, true)).toBe(3);
    // A show-3 field the relation shows becomes 1 in an editable form, and stays 3 in a read-only one.
    expect(showOf('note', { carType: 1 })).toBe(1);
    expect(showOf('note', { carType: 1 }, true)).toBe(3);
    // Otherwise hidden.
    expect(showOf('permitNo', { carType: 2 })).toBe(2);
    expect(showOf('permitNo', {})).toBe(2);
    expect(showOf('note', { carType: '2' })).toBe(2);
    // A field no relation names keeps its own show.
    expect(showOf('code', { carType: 1 })).toBe(2);
    expect(showOf('plateNo', {}, true)).toBe(1);
    // Shown, it is validated like show 1 and required; hidden, it is neither validated nor submitted.
    const schema = buildSchema(form);
    expect(issues(schema, { plateNo: '沪A1', carType: '1' })).toEqual([{ path: ['permitNo'], message: '请输入危运证号' }]);
    expect(parsed(schema, { plateNo: '沪A1', carType: '1', permitNo: 'W-1' })).toEqual({ plateNo: '沪A1', carType: '1', permitNo: 'W-1' });
    // The shown show-3 field is submitted like a show-1 one; hidden, it is dropped.
    expect(parsed(schema, { plateNo: '沪A1', carType: '1', permitNo: 'W-1', note: '夜间' })).toEqual({
      plateNo: '沪A1',
      carType: '1',
      permitNo: 'W-1',
      note: '夜间',
    });
    expect(parsed(schema, { plateNo: '沪A1', carType: '2', note: '夜间' })).toEqual({ plateNo: '沪A1', carType: '2' });
    expect(parsed(schema, { plateNo: '沪A1', carType: '2', permitNo: 'x'.repeat(300) })).toEqual({ plateNo: '沪A1', carType: '2' });
  });
});
