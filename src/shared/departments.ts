/**
 * The departments the specification names, each written once: the app tells them apart by what the
 * session says of its user (GET /api/auth/info: `user.deptId`, `user.deptCode`).
 */

/** The supervisory department's code: its users get the supervisory home and the 监管用户 tag. */
export const SUPERVISOR_DEPT_CODE = '01';

/** Whether a department code is the supervisory department's. */
export const isSupervisorDept = (deptCode: string | null | undefined): boolean => deptCode === SUPERVISOR_DEPT_CODE;

/** The department whose users get no unread-message badge nor message counter: the specification fixes it by id, 1. */
export const NO_BADGE_DEPT_ID = 1;

/** Whether a user of department `deptId` sees the unread-message badge and counts. */
export const showsMessageBadge = (deptId: number | null | undefined): boolean => deptId !== NO_BADGE_DEPT_ID;
