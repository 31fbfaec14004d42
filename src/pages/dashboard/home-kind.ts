import { isSupervisorDept } from '../../shared/departments';

export type DashboardKind = 'supervisor' | 'logistics' | 'collectionPoint' | 'full';

/** Which home a user gets: the supervisory department's, else by the account's permission value. */
export function dashboardKind(user: { deptCode: string | null; permission: string | null }): DashboardKind {
  if (isSupervisorDept(user.deptCode)) return 'supervisor';
  if (user.permission === 'logistics') return 'logistics';
  if (user.permission === 'collectionPoint') return 'collectionPoint';
  return 'full';
}
