/** The supervisory department's code: its members get the supervisory home. */
export const SUPERVISOR_DEPT_CODE = '01';

export type DashboardKind = 'supervisor' | 'logistics' | 'collectionPoint' | 'full';

/** Which home a user gets: the supervisory department's, else by the account's permission value. */
export function dashboardKind(user: { deptCode: string | null; permission: string | null }): DashboardKind {
  if (user.deptCode === SUPERVISOR_DEPT_CODE) return 'supervisor';
  if (user.permission === 'logistics') return 'logistics';
  if (user.permission === 'collectionPoint') return 'collectionPoint';
  return 'full';
}
