/**
 * A person's nickname and mobile number, as the user form and the personal centre check them; the
 * server applies the same rules and answers with the same messages.
 */

/** Mainland mobile numbers: 11 digits starting with 1 and a second digit from 2 to 9. */
export const PHONE_RE = /^1[2-9]\d{9}$/;

export const PERSON_MESSAGES = {
  nickRequired: '请输入用户昵称',
  nickLength: '长度在 2 到 20 个字符',
  nickHidden: '昵称不能包含不可见或改变文字方向的字符',
  phoneRequired: '请输入电话号码',
  phoneFormat: '请输入正确的11位手机号码',
} as const;

/** The 性别 choices of a person. */
export const SEX_OPTIONS = [
  { value: '男', label: '男' },
  { value: '女', label: '女' },
];

/**
 * Characters a name must not hold: controls, invisible format characters (zero-width spaces and joiners,
 * direction controls), blank letters (U+2800, the Hangul fillers) and invisible marks (variation
 * selectors, the grapheme joiner, Mongolian and Khmer invisibles, tags), with which a name looks like
 * another one or reorders the text shown after it.
 */
export const HIDDEN_IN_NAMES =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible mark is to be found alone, whatever it follows
  /[\p{Cc}\p{Cf}\u2800\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u180b-\u180f\ufe00-\ufe0f\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

/** A name as names are told apart: compatibility forms folded (ＡＢＣ is ABC), hidden characters and spaces dropped. */
export const nameKey = (name: string): string =>
  name.normalize('NFKC').replace(new RegExp(HIDDEN_IN_NAMES.source, 'gu'), '').replace(/\s+/g, '');

export const NICK_MIN = 2;
export const NICK_MAX = 20;

/** The first message a nickname breaks, or null. */
export function nickNameError(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return PERSON_MESSAGES.nickRequired;
  if (v.length < NICK_MIN || v.length > NICK_MAX) return PERSON_MESSAGES.nickLength;
  if (HIDDEN_IN_NAMES.test(v)) return PERSON_MESSAGES.nickHidden;
  return null;
}

/** The first message a mobile number breaks, or null. */
export function phoneError(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return PERSON_MESSAGES.phoneRequired;
  return PHONE_RE.test(v) ? null : PERSON_MESSAGES.phoneFormat;
}
