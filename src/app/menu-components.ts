import type { ComponentType } from 'react';
import { LEAVE_MESSAGES_COMPONENT, LOGISTICS_DETAIL_COMPONENT } from '../model';

/**
 * Hand-written pages that a menu reaches by its `component`, as the server's menus name them. A
 * menu page is shown only to a user whose menus grant it; each page is loaded on demand, as a chunk
 * of its own. An administrator who points a new menu at one of these components gets the page.
 */
const loaders: Record<string, () => Promise<ComponentType>> = {
  'dashboard/index': () => import('../pages/dashboard/dashboard-page').then((m) => m.DashboardPage),
  'system/user/center': () => import('../pages/user-center/user-center-page').then((m) => m.UserCenterPage),
  'message/systemMessage': () => import('../pages/messages/system-message-page').then((m) => m.SystemMessagePage),
  'dev-tools/preview': () => import('../pages/preview-page').then((m) => m.PreviewPage),
  'qrcode/print': () => import('../pages/qrcode/qrcode-print-page').then((m) => m.QrcodePrintPage),
  'dev-tools/generation': () => import('../pages/admin/generation/generation-page').then((m) => m.GenerationPage),
  'dev-tools/screen': () => import('../pages/admin/screen/screen-admin-page').then((m) => m.ScreenAdminPage),
  'dev-tools/dataView': () => import('../pages/admin/data-view/data-view-page').then((m) => m.DataViewPage),
  'lsDesign/index': () => import('../pages/ls-design/ls-design-page').then((m) => m.LsDesignPage),
  'system/user/index': () => import('../pages/admin/system/user-page').then((m) => m.UserAdminPage),
  'system/role/index': () => import('../pages/admin/system/role-page').then((m) => m.RoleAdminPage),
  'system/menu/index': () => import('../pages/admin/system/menu-page').then((m) => m.MenuAdminPage),
  'system/dept/index': () => import('../pages/admin/system/dept-page').then((m) => m.DeptAdminPage),
  'system/dict/index': () => import('../pages/admin/system/dict-page').then((m) => m.DictAdminPage),
  'system/companyApply/index': () => import('../pages/admin/system/company-apply-page').then((m) => m.CompanyApplyPage),
  'supervision/company/index': () => import('../pages/supervision/company-list-page').then((m) => m.CompanyListPage),
  // Pages that stand in for a screen at the address of the menu naming them (the screen's definition is not drawn there).
  // The logistics detail is read only, not the screen's form.
  [LOGISTICS_DETAIL_COMPONENT]: () => import('../pages/logistics/logistics-detail-page').then((m) => m.LogisticsDetailPage),
  // The leave-message inbox over the store POST /api/leaveMessage writes, not the screen's view table.
  [LEAVE_MESSAGES_COMPONENT]: () => import('../pages/messages/leave-message-page').then((m) => m.LeaveMessagePage),
};

/** The loader of a menu's component, or undefined when no page of the app has that name. */
export function menuComponentLoader(component: string): (() => Promise<ComponentType>) | undefined {
  return Object.hasOwn(loaders, component) ? loaders[component] : undefined;
}
