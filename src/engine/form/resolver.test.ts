import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import type { FieldModel, FormModel } from '../../model';
import { buildSchema } from '../../model';
import { fieldErrors, zodResolver } from './resolver';

const base = { dataType: 'varchar', kind: 'text', show: 1, required: false, disabled: false, editLock: false } as const;
const f = (name: string, label: string, rest: Partial<FieldModel> = {}): FieldModel => ({ ...base, name, label, ...rest }) as FieldModel;

const form: FormModel = {
  fields: [
    f('waybillNo', '运单号', { required: true, pattern: '^WL\\d{12}$', maxLength: 255 }),
    f('phone', '电话', { validator: 'mobile', maxLength: 255 }),
    f('weight', '运输重量', { dataType: 'decimal', kind: 'decimal', required: true, decimals: 3, min: 0.001, max: 49 }),
    f('count', '数量', { dataType: 'long', kind: 'long', min: 1 }),
    f('needPay', '是否预付', { kind: 'dict', dict: 'yesOrNo', requiredRelation: { fields: ['payee'], value: '1' } }),
    f('payee', '收款人', { maxLength: 10 }),
  ],
  dividers: [],
  dialog: { width: 400, labelWidth: 80, inline: false, key: 'id', initGroovy: false },
};
const schema = buildSchema(form);
const resolve = zodResolver(schema);
const options: ResolverOptions<Record<string, unknown>> = { fields: {}, shouldUseNativeValidation: false };

describe('zodResolver', () => {
  it('gives each field the first message of the model schema', async () => {
    const r = await resolve({ waybillNo: '', phone: '', weight: null, count: null }, undefined, options);
    expect(r.values).toEqual({});
    expect(r.errors).toEqual({
      waybillNo: { type: 'validate', message: '请输入运单号' },
      weight: { type: 'validate', message: '请输入运输重量' },
    });
  });

  it('reports patterns, named validators, decimals and bounds with the schema texts', () => {
    const r = fieldErrors(schema, { waybillNo: 'WL1', phone: '12345', weight: 1.23456, count: 0 });
    expect(r).toEqual({
      ok: false,
      errors: {
        waybillNo: '运单号格式不正确，应为WL（12位数字）',
        phone: '手机号格式错误',
        weight: '运输重量最多保留3位小数',
        count: '最小值不能小于 1',
      },
    });
    expect(fieldErrors(schema, { waybillNo: 'WL209900000001', weight: 50 })).toEqual({
      ok: false,
      errors: { weight: '最大值不能大于 49' },
    });
    expect(fieldErrors(schema, { waybillNo: 'WL209900000001', weight: 1, payee: 'x'.repeat(11) })).toEqual({
      ok: false,
      errors: { payee: '收款人长度不能超过10个字符' },
    });
  });

  it('requires a field while its requiredRelation matches', () => {
    const ok = { waybillNo: 'WL209900000001', weight: 1 };
    expect(fieldErrors(schema, { ...ok, needPay: '0' }).ok).toBe(true);
    expect(fieldErrors(schema, { ...ok, needPay: '1' })).toEqual({ ok: false, errors: { payee: '请输入收款人' } });
  });

  it('passes the schema output on success: non-fields stripped, empties null', async () => {
    const r = await resolve({ waybillNo: 'WL209900000001', weight: 2, phone: '', id: 3, count: 4 }, undefined, options);
    expect(r.errors).toEqual({});
    expect(r.values).toEqual({ waybillNo: 'WL209900000001', weight: 2, phone: null, count: 4 });
  });
});
