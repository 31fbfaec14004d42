import { describe, expect, it } from 'vitest';
import { nameKey, nickNameError, PERSON_MESSAGES, phoneError } from './person-rule';

describe('person rules', () => {
  it.each([
    ['', PERSON_MESSAGES.nickRequired],
    ['   ', PERSON_MESSAGES.nickRequired],
    [undefined, PERSON_MESSAGES.nickRequired],
    ['王', '长度在 2 到 20 个字符'],
    ['王丽', null],
    [' 王丽 ', null],
    ['字'.repeat(20), null],
    ['字'.repeat(21), '长度在 2 到 20 个字符'],
  ])('nickname %j: required, then 2 to 20 characters → %j', (value, message) => {
    expect(nickNameError(value)).toBe(message);
  });

  it.each([
    ['', '请输入电话号码'],
    [undefined, '请输入电话号码'],
    ['13812345678', null],
    ['12800000000', null],
    ['11800000000', '请输入正确的11位手机号码'],
    ['10812345678', '请输入正确的11位手机号码'],
    ['1381234567', '请输入正确的11位手机号码'],
    ['138123456789', '请输入正确的11位手机号码'],
  ])('phone %j: required, then 11 digits of a mobile number → %j', (value, message) => {
    expect(phoneError(value)).toBe(message);
  });

  it.each([
    ['管理员\u202e'],
    ['管理员\u200b'],
    [`管理员${'\u2800'.repeat(3)}`],
    ['张\u3164三'],
    ['张三\u2066'],
    ['管理员\ufe0f'],
    ['管理员\u034f'],
    ['管理员\u{e0100}'],
    ['管理员\u17b4'],
    ['管理员\u180b'],
  ])('nick name %j: an invisible or direction character is refused', (value) => {
    expect(nickNameError(value)).toBe('昵称不能包含不可见或改变文字方向的字符');
  });

  it('tells names apart as they are read: compatibility forms folded, hidden characters and spaces dropped', () => {
    expect(nameKey('ＡＢＣ 环保\u200b公司')).toBe(nameKey('ABC环保公司'));
    expect(nameKey('甲公司')).not.toBe(nameKey('乙公司'));
  });
});
