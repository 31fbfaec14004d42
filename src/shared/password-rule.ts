/**
 * Password rule: 8 or more non-whitespace characters
 * with at least 3 of the 4 classes upper, lower, digit, special. The server enforces the
 * same function on updatePass and user creation.
 */
export const PASSWORD_RULE_MESSAGE = '由字母、数字、特殊字符组成，8个字符以上';

export function passwordClasses(pw: string): number {
  let n = 0;
  if (/[A-Z]/.test(pw)) n++;
  if (/[a-z]/.test(pw)) n++;
  if (/[0-9]/.test(pw)) n++;
  if (/[^A-Za-z0-9\s]/.test(pw)) n++;
  return n;
}

export function isStrongPassword(pw: string): boolean {
  return /^\S{8,}$/.test(pw) && passwordClasses(pw) >= 3;
}
