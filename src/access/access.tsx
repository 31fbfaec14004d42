import type { ReactNode } from 'react';
import { useCallback } from 'react';
import { useSession } from '../session/session-store';
import { hasPermission } from './permission';

/**
 * The roles an <Access> needs, checked like the original directive: a non-empty
 * array, else a usage error that names the mistake, so a wrong call fails loudly in development
 * instead of silently hiding (or showing) a button.
 */
export function assertRoleList(roles: unknown): asserts roles is readonly string[] {
  if (!Array.isArray(roles)) {
    throw new Error(`<Access roles> needs an array of roles, e.g. roles={['admin', 'user:add']}; got ${describe(roles)}`);
  }
  if (roles.length === 0) throw new Error(`<Access roles> needs at least one role, e.g. roles={['admin', 'user:add']}; got []`);
  if (roles.some((r) => typeof r !== 'string' || !r)) {
    throw new Error(`<Access roles> takes non-empty role strings; got ${JSON.stringify(roles)}`);
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Whether a user with `userRoles` may see what `<Access roles={required}>` guards. */
export function canAccess(userRoles: readonly string[] | null | undefined, required: unknown): boolean {
  assertRoleList(required);
  return hasPermission(userRoles, required);
}

export interface AccessProps {
  /** Any one of these passes; admin and the wildcard always pass. Must be a non-empty array. */
  roles: readonly string[];
  children?: ReactNode;
  /** Shown instead when the user lacks the roles (nothing by default: the element is removed). */
  fallback?: ReactNode;
}

/** Renders its children only for a user holding one of `roles` (the permission directive). */
export function Access({ roles, children, fallback = null }: AccessProps) {
  const session = useSession();
  return <>{canAccess(session.roles, roles) ? children : fallback}</>;
}

/** `(permission) => boolean` for the signed-in user's roles, e.g. to disable a button or skip a column. */
export function usePermission(): (permission: string | readonly string[]) => boolean {
  const { roles } = useSession();
  return useCallback((permission) => hasPermission(roles, permission), [roles]);
}
