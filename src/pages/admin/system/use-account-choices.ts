import { useMemo } from 'react';
import { useLookup } from '../../../request';
import { type AccountChoices, toDeptOptions } from './account-fields';
import { allRoles, deptTree } from './api';

/** What an account is placed in: every role, and the department tree (the enabled departments) with its options. */
export function useAccountChoices(): AccountChoices {
  const roles = useLookup('roles', allRoles);
  const depts = useLookup('depts', deptTree);
  const options = useMemo(() => toDeptOptions(depts.data ?? []), [depts.data]);
  return { roles, depts: { ...depts, options } };
}
