/**
 * Fixed ids shared by the seed modules, so that menus, users, companies, views and screens
 * can refer to each other without looking each other up. Some are fixed by the addresses the app
 * links to (screens 97, 30, 25 and view 12).
 */
export const COMPANY = {
  producer: 1, // 产废企业
  disposer: 2, // 处置企业
  logistics: 3, // 物流企业
  collector: 4, // 收集点
  producer2: 5,
  disposer2: 6,
} as const;

/** View definitions (generation): id, componentName (permission prefix), title. */
export const VIEWS = [
  { id: 12, componentName: 'stockIn', title: '危废入库' },
  { id: 13, componentName: 'stockOut', title: '危废出库' },
  { id: 14, componentName: 'warehouse', title: '企业仓库' },
  { id: 15, componentName: 'disposalInquiry', title: '处置询价' },
  { id: 16, componentName: 'contract', title: '合同管理' },
  { id: 17, componentName: 'vehicle', title: '车辆信息' },
  { id: 18, componentName: 'leaveMessage', title: '留言管理' },
  { id: 19, componentName: 'disposalOrder', title: '处置订单' },
  { id: 20, componentName: 'logisticsOrder', title: '物流订单' },
] as const;

/** Screens: id, type (1 list, 2 big screen, 3 form, 4 tabs), route path, title. */
export const SCREENS = [
  { id: 97, type: 1, path: '/message/vBuild/temp/97', title: '未读留言' },
  { id: 30, type: 1, path: '/dispose/vBuild/temp/30', title: '处置单' },
  { id: 25, type: 3, path: '/logistics/vBuild/temp/25', title: '物流详情' },
  { id: 40, type: 4, path: '/stock/vBuild/temp/40', title: '库存管理' },
  { id: 50, type: 2, path: '/screen/vBuild/temp/50', title: '危废运营大屏' },
] as const;

/** Menu id of a view's page: the view definition's menuId. */
export const viewMenuId = (viewId: number) => 1000 + viewId;
/** Menu id of a screen's page: the screen definition's menuId. */
export const screenMenuId = (screenId: number) => 2000 + screenId;
/** Route of a view's generated page. */
export { viewPath } from '../../src/model/index.js';
/** Permission strings of a view's page: list (the menu itself) and the CRUD buttons. */
export const viewPermissions = (componentName: string) => ['list', 'add', 'edit', 'del', 'look', 'pre'].map((a) => `${componentName}:${a}`);
