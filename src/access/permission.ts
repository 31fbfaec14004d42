/**
 * A permission check passes when the roles hold `admin`, the wildcard
 * all-permission or the exact permission string.
 */
export const ADMIN_ROLE = 'admin';
export const ALL_PERMISSIONS = '*:*:*';

export function hasPermission(roles: readonly string[] | null | undefined, permission: string | readonly string[]): boolean {
  if (!roles?.length) return false;
  if (roles.includes(ADMIN_ROLE) || roles.includes(ALL_PERMISSIONS)) return true;
  const wanted = typeof permission === 'string' ? [permission] : permission;
  return wanted.some((p) => roles.includes(p));
}
