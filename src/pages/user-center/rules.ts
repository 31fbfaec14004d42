/**
 * The personal centre's form rules and their messages, shared by the forms and their tests. The
 * server applies the same rules (PUT /api/users/center, POST /api/users/updateEmail/{code}).
 */
import { nickNameError, PERSON_MESSAGES, phoneError } from '../../shared/person-rule';

export { nickNameError, phoneError };

export const EMAIL_RE = /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/;

export const MESSAGES = {
  ...PERSON_MESSAGES,
  emailRequired: '请输入新邮箱',
  emailSame: '新邮箱不能与旧邮箱相同',
  emailFormat: '邮箱格式错误',
  passRequired: '请输入当前密码',
  codeRequired: '请输入验证码',
  avatarType: '头像只能是 jpg 或 png 格式',
  avatarDone: '头像修改成功',
  emailDone: '邮箱修改成功',
  codeSent: '发送成功，验证码有效期5分钟',
} as const;

/** The send-code button's cooldown and the code's validity. */
export const RESEND_SECONDS = 60;
export const CODE_VALID_MINUTES = 5;

/** The new e-mail against the current one (compared without case, as the server does). */
export function newEmailError(value: string | undefined | null, current: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return MESSAGES.emailRequired;
  if (current && v.toLowerCase() === current.trim().toLowerCase()) return MESSAGES.emailSame;
  if (!EMAIL_RE.test(v)) return MESSAGES.emailFormat;
  return null;
}

/** Avatars: jpg or png by name (the server checks the bytes too). */
export function isAvatarFile(name: string, type?: string): boolean {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  if (!['jpg', 'jpeg', 'png'].includes(ext)) return false;
  return !type || type === 'image/jpeg' || type === 'image/png';
}

export type TimeTag = 'success' | 'warning' | 'error';

/** The operation log's time tag: normal up to 300 ms, warning up to 1000 ms, danger above. */
export function timeTag(ms: number): TimeTag {
  if (ms <= 300) return 'success';
  if (ms <= 1000) return 'warning';
  return 'error';
}

/** Splits the cities into slides: the first 6 on the first slide, the rest on the second. */
export function citySlides<T>(cities: readonly T[], first = 6): T[][] {
  const head = cities.slice(0, first);
  const rest = cities.slice(first);
  return rest.length ? [head, rest] : head.length ? [head] : [];
}

/** Seconds left of a cooldown that started at `startedAt` (ms), never negative. */
export function secondsLeft(startedAt: number | null, now: number, seconds = RESEND_SECONDS): number {
  if (startedAt === null) return 0;
  return Math.max(0, seconds - Math.floor((now - startedAt) / 1000));
}
