import { describe, expect, it } from 'vitest';
import { patternMessage, patternWords } from './pattern-text';
import { buildSchema, dateMessage } from './schema';
import { VALIDATOR_NAMES, VALIDATORS } from './validators';

describe('format messages name the format', () => {
  it('says a pattern in words: literal text, and each counted class in brackets', () => {
    expect(patternWords('^RK\\d{12}$')).toBe('RK（12位数字）');
    expect(patternWords('^\\d{3}-\\d{3}-\\d{2}$')).toBe('（3位数字）-（3位数字）-（2位数字）');
    expect(patternWords('^XJ\\d{4}$')).toBe('XJ（4位数字）');
    expect(patternWords('^\\d{6}$')).toBe('6位数字');
    expect(patternWords('^[A-Z]{2}\\d{2,4}$')).toBe('（2位大写字母）（2到4位数字）');
    expect(patternWords('^\\d+$')).toBe('数字');
    expect(patternWords('^HW\\d{2}\\.\\d+$')).toBe('HW（2位数字）.（数字）');
  });

  it('says only 格式不正确 for a pattern beyond words, never the regular expression', () => {
    expect(patternWords('^(a|b)$')).toBeNull();
    expect(patternWords('^a?b$')).toBeNull();
    expect(patternMessage('编号', '^(a|b)$')).toBe('编号格式不正确');
    // The seeded 车牌号 pattern: a province, a letter, then five or six of a class beyond words.
    const plate = '^[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z][A-HJ-NP-Z0-9]{4,5}[A-HJ-NP-Z0-9挂学警港澳]$';
    expect(patternMessage('车牌号', plate)).toBe('车牌号格式不正确');
    expect(patternMessage('入库单号', '^RK\\d{12}$')).toBe('入库单号格式不正确，应为RK（12位数字）');
  });

  it('names the date format of a date field', () => {
    expect(dateMessage('入库时间')).toBe('入库时间格式应为 YYYY-MM-DD HH:mm:ss');
    expect(dateMessage('检查日期', 'YYYY-MM-DD')).toBe('检查日期格式应为 YYYY-MM-DD');
    expect(dateMessage('D')).toBe('D日期格式应为 YYYY-MM-DD HH:mm:ss');
  });

  it('gives every validator message a format, or the specification’s own words', () => {
    // The specification's messages, kept as they are: each names the kind of number or address.
    const given = new Set(['手机号格式错误', '手机号码格式不正确', '电子邮箱格式不正确', '身份证号码格式不正确']);
    for (const name of VALIDATOR_NAMES) {
      const message = VALIDATORS[name].message;
      if (!given.has(message)) expect(message, name).not.toMatch(/格式不正确$|格式错误$/);
    }
    expect(VALIDATORS.landline.message).toContain('010-1234567');
  });
});

describe('the username validator', () => {
  it('accepts admin and editor (trimmed), and refuses any other name with a message that names them', () => {
    expect(VALIDATOR_NAMES).toContain('username');
    const v = VALIDATORS.username;
    expect(v.test('admin')).toBe(true);
    expect(v.test(' editor ')).toBe(true);
    expect(v.test('bob')).toBe(false);
    expect(v.test('Admin')).toBe(false);
    expect(v.message).toBe('用户名应为 admin 或 editor');
  });

  it('refuses in a form schema built from a field that names it', () => {
    const schema = buildSchema({
      fields: [
        {
          name: 'account',
          label: '账号',
          kind: 'text',
          dataType: 'varchar',
          show: 1,
          required: true,
          validator: 'username',
        },
      ],
    } as never);
    const r = schema.safeParse({ account: 'bob' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('用户名应为 admin 或 editor');
    expect(schema.safeParse({ account: 'editor' }).success).toBe(true);
  });
});
