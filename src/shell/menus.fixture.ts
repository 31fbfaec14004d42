/** A menu tree in the shape of the seeded /api/menus/build answer, for the shell's unit tests. */
import type { MenuRoute } from '../session/session-store';

const page = (name: string, path: string, title: string, icon: string | null, extra: Partial<MenuRoute> = {}): MenuRoute => ({
  name,
  path,
  hidden: false,
  component: 'dev-tools/temp/page',
  meta: { title, icon, noCache: true },
  ...extra,
});

const dir = (path: string, title: string, icon: string, children: MenuRoute[], extra: Partial<MenuRoute> = {}): MenuRoute => ({
  name: title,
  path,
  hidden: false,
  redirect: 'noredirect',
  component: 'Layout',
  alwaysShow: true,
  meta: { title, icon, noCache: true },
  children,
  ...extra,
});

export const MENUS: MenuRoute[] = [
  page('Dashboard', '/dashboard', '企业看板', 'index', { component: 'dashboard/index' }),
  page('UserCenter', '/user/center', '个人中心', 'user', { hidden: true }),
  dir('/message', '消息中心', 'message', [
    page('SystemMessage', 'systemMessage', '系统消息', 'notice'),
    page('vBuild97', '/message/vBuild/temp/97', '未读留言', 'chat'),
  ]),
  dir('/waste', '危废管理', 'waste', [
    page('stockIn', '/dev-tools/temp/page/stockIn/12', '危废入库', 'in'),
    page('stockOut', '/dev-tools/temp/page/stockOut/13', '危废出库', 'out'),
    page('warehouse', '/dev-tools/temp/page/warehouse/14', '企业仓库', 'warehouse', {
      meta: { title: '企业仓库', icon: 'warehouse', noCache: false },
    }),
  ]),
  dir('/logistics', '物流管理', 'logistics', [
    page('logisticsOrder', '/dev-tools/temp/page/logisticsOrder/20', '物流订单', 'order'),
    page('vBuild25', '/logistics/vBuild/temp/25', '物流详情', 'detail', { hidden: true }),
  ]),
  page('vBuild40', '/stock/vBuild/temp/40', '库存管理', 'stock'),
  dir('/screen', '数据大屏', 'chart', [page('vBuild50', '/screen/vBuild/temp/50', '危废运营大屏', 'monitor')], { alwaysShow: false }),
  dir('/dev-tools', '低代码', 'dev', [page('Preview', 'preview', '视图预览', 'eye', { hidden: true })], { hidden: true }),
  dir('/system', '系统管理', 'system', [
    page('User', 'user', '用户管理', 'peoples'),
    dir('deep', '深层目录', 'tree', [page('Deep', 'leaf', '叶子页面', null)]),
  ]),
];
