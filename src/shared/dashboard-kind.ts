import { isSupervisorDept } from './departments';

export type DashboardKind = 'supervisor' | 'logistics' | 'collectionPoint' | 'full';

/** Which home a user gets: the supervisory department's, else by the account's permission value. */
export function dashboardKind(user: { deptCode: string | null; permission: string | null }): DashboardKind {
  if (isSupervisorDept(user.deptCode)) return 'supervisor';
  if (user.permission === 'logistics') return 'logistics';
  if (user.permission === 'collectionPoint') return 'collectionPoint';
  return 'full';
}

/** Each home's name: the page's heading, and the sidebar entry that opens it (menus.build). */
export const DASHBOARD_TITLES: Record<DashboardKind, string> = {
  supervisor: '监管看板',
  logistics: '物流看板',
  collectionPoint: '收集点看板',
  full: '企业看板',
};

/** The component of the menu page that opens the user's home. */
export const DASHBOARD_COMPONENT = 'dashboard/index';
