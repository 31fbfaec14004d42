/**
 * A permission check passes when the roles hold `admin`, the wildcard all-permission or one of the
 * wanted permission strings. The server and the app decide with this one rule.
 */
export const ADMIN_ROLE = 'admin';
export const ALL_PERMISSIONS = '*:*:*';

export function hasPermission(roles: readonly string[] | null | undefined, permission: string | readonly string[]): boolean {
  if (!roles?.length) return false;
  if (roles.includes(ADMIN_ROLE) || roles.includes(ALL_PERMISSIONS)) return true;
  const wanted = typeof permission === 'string' ? [permission] : permission;
  return wanted.some((p) => roles.includes(p));
}

/** Who sees and may press a custom button: the roles it names, or the administrator alone when it names none. */
export function buttonPermissions(roles: readonly string[]): readonly string[] {
  return roles.length ? roles : [ADMIN_ROLE];
}
