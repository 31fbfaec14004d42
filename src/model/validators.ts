/**
 * The named field validators a definition may give (configure.validator), each with the message the
 * user sees. A message the specification gives is kept as it is; the others name the format expected.
 */

const MOBILE = /^1[3-9]\d{9}$/;
const LANDLINE = /^0\d{2,3}-?\d{7,8}(-\d{1,6})?$/;
/** The user names the username validator accepts. */
const USERNAMES = ['admin', 'editor'];

function isIdCard(v: string): boolean {
  const validDate = (y: number, m: number, d: number) => {
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  };
  if (/^\d{15}$/.test(v)) {
    return validDate(1900 + Number(v.slice(6, 8)), Number(v.slice(8, 10)), Number(v.slice(10, 12)));
  }
  if (!/^\d{17}[\dXx]$/.test(v)) return false;
  if (!validDate(Number(v.slice(6, 10)), Number(v.slice(10, 12)), Number(v.slice(12, 14)))) return false;
  // GB 11643 checksum
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(v[i]), 0);
  return '10X98765432'[sum % 11] === v[17]?.toUpperCase();
}

export const VALIDATORS = {
  mobile: { test: (v) => MOBILE.test(v), message: '手机号格式错误' },
  mobileList: { test: (v) => v.split(',').every((s) => MOBILE.test(s.trim())), message: '手机号格式错误' },
  phone: { test: (v) => /^1[2-9]\d{9}$/.test(v), message: '手机号码格式不正确' },
  landline: { test: (v) => LANDLINE.test(v), message: '座机号码格式应为 区号-号码，如 010-1234567' },
  phoneOrLandline: { test: (v) => MOBILE.test(v) || LANDLINE.test(v), message: '请输入正确的手机号码或座机号码' },
  email: { test: (v) => /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/.test(v), message: '电子邮箱格式不正确' },
  idCard: { test: isIdCard, message: '身份证号码格式不正确' },
  ipv4: {
    test: (v) => /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(v),
    message: '请输入正确的IP地址',
  },
  url: { test: (v) => /^(https?|ftp):\/\/[^\s/$.?#].[^\s]*$/i.test(v), message: '网址格式应为 http://、https:// 或 ftp:// 开头的地址' },
  externalLink: { test: (v) => /^(https?:|mailto:|tel:)/.test(v), message: '链接应以 http:、https:、mailto: 或 tel: 开头' },
  lowercase: { test: (v) => /^[a-z]+$/.test(v), message: '只能输入小写字母' },
  uppercase: { test: (v) => /^[A-Z]+$/.test(v), message: '只能输入大写字母' },
  letters: { test: (v) => /^[A-Za-z]+$/.test(v), message: '只能输入字母' },
  /** The specification's username check: the name, trimmed, is admin or editor. */
  username: { test: (v) => USERNAMES.includes(v.trim()), message: `用户名应为 ${USERNAMES.join(' 或 ')}` },
} as const satisfies Record<string, { test: (v: string) => boolean; message: string }>;

export type ValidatorName = keyof typeof VALIDATORS;

export const VALIDATOR_NAMES = Object.keys(VALIDATORS).sort() as ValidatorName[];

export const isValidatorName = (name: string): name is ValidatorName => Object.hasOwn(VALIDATORS, name);
