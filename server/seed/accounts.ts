import { sql, type Transaction } from 'kysely';
import { LEAVE_MESSAGES_COMPONENT, LOGISTICS_DETAIL_COMPONENT, SCREEN_PAGE_COMPONENT } from '../../src/model/index.js';
import { hashPassword } from '../auth.js';
import type { DB } from '../db/schema.js';
import { COMPANY, SCREENS, screenMenuId, VIEWS, viewMenuId, viewPath } from './ids.js';

/**
 * Settings, departments, roles, the menu tree and demo accounts. Rows carry explicit
 * ids (see USER, DEPT, ROLE below and ids.ts) so later seed modules can refer to them; every
 * sequence is moved past them at the end.
 */

export const DEMO_PASSWORD = 'Waste@2026';

/**
 * Department ids. Supervisors are recognised by the code '01' of 监管部门, a platform department; the
 * departments from `producers` on belong each to one demo company.
 */
export const DEPT = {
  platform: 1,
  supervision: 2,
  producers: 3,
  disposers: 4,
  logistics: 5,
  collectors: 6,
  sysadmin: 7,
  suzhou: 8,
  nanjing: 9,
  service: 10,
  ops: 11,
  producer2: 12,
  disposer2: 13,
} as const;

export const ROLE = { superAdmin: 1, supervisor: 2, producer: 3, disposer: 4, logistics: 5, collector: 6 } as const;

export const USER = {
  admin: 1,
  supervisor: 2,
  producer: 3,
  disposer: 4,
  logistics: 5,
  collector: 6,
  expired: 7,
  newcomer: 8,
  guest: 9,
} as const;

/** Menu ids of the pages that are not view or screen pages (those use viewMenuId / screenMenuId). */
export const MENU = {
  dashboard: 1,
  center: 2,
  messages: 10,
  systemMessage: 11,
  waste: 20,
  dispose: 30,
  logistics: 40,
  screens: 50,
  lowcode: 60,
  generation: 61,
  screen: 62,
  dataView: 63,
  preview: 64,
  lsDesign: 65,
  qrcodePrint: 66,
  system: 70,
  user: 71,
  role: 72,
  menu: 73,
  dept: 74,
  dict: 75,
  companyApply: 76,
  supervision: 80,
  summaryPage: 81,
  contractManage: 82,
  microServe: 83,
  inventoryReview: 84,
  companyMange: 85,
} as const;

type ComponentName = (typeof VIEWS)[number]['componentName'];
const VIEW_ACTIONS = ['add', 'edit', 'del', 'look', 'pre'] as const;
/** Button menu of a view's page action: 3000 + viewId * 10 + action index (1..5). */
const viewButtonId = (viewId: number, action: (typeof VIEW_ACTIONS)[number]) => 3000 + viewId * 10 + VIEW_ACTIONS.indexOf(action) + 1;
const view = (name: ComponentName) => VIEWS.find((v) => v.componentName === name) as (typeof VIEWS)[number];
const screen = (id: (typeof SCREENS)[number]['id']) => SCREENS.find((s) => s.id === id) as (typeof SCREENS)[number];

interface MenuSeed {
  id: number;
  pid: number | null;
  type: 0 | 1 | 2;
  title: string;
  name?: string;
  component?: string;
  path?: string;
  icon?: string;
  permission?: string;
  sort: number;
  hidden?: boolean;
  cache?: boolean;
}

/** The columns a menu seed may leave out: no route parts, shown, not cached. */
const MENU_DEFAULTS = { name: null, component: null, path: null, icon: null, permission: null, hidden: false, cache: false };

function menuSeeds(): MenuSeed[] {
  const out: MenuSeed[] = [];
  const dir = (id: number, title: string, path: string, icon: string, sort: number, pid: number | null = null) =>
    out.push({ id, pid, type: 0, title, path, icon, sort });
  const page = (m: Omit<MenuSeed, 'type'>) => out.push({ type: 1, ...m });
  const buttons = (pid: number, firstId: number, title: string, perms: [string, string][]) =>
    perms.forEach(([label, permission], i) => {
      out.push({ id: firstId + i, pid, type: 2, title: `${title}${label}`, permission, sort: i + 1 });
    });
  const viewPage = (name: ComponentName, pid: number, sort: number, icon: string) => {
    const v = view(name);
    page({
      id: viewMenuId(v.id),
      pid,
      title: v.title,
      name: v.componentName,
      component: 'dev-tools/temp/page',
      path: viewPath(v.componentName, v.id),
      icon,
      permission: `${v.componentName}:list`,
      sort,
    });
    const labels = { add: '新增', edit: '编辑', del: '删除', look: '查看', pre: '高级查询' };
    for (const [i, a] of VIEW_ACTIONS.entries()) {
      out.push({
        id: viewButtonId(v.id, a),
        pid: viewMenuId(v.id),
        type: 2,
        title: `${v.title}${labels[a]}`,
        permission: `${v.componentName}:${a}`,
        sort: i + 1,
      });
    }
  };
  /** A screen's page; `component` names the app's own page that stands in for the screen at its address. */
  const screenPage = (
    id: (typeof SCREENS)[number]['id'],
    pid: number | null,
    sort: number,
    icon: string,
    hidden = false,
    component = SCREEN_PAGE_COMPONENT,
  ) => {
    const s = screen(id);
    page({
      id: screenMenuId(s.id),
      pid,
      title: s.title,
      name: `vBuild${s.id}`,
      component,
      path: s.path,
      icon,
      sort,
      hidden,
    });
  };

  page({
    id: MENU.dashboard,
    pid: null,
    title: '企业看板',
    name: 'Dashboard',
    component: 'dashboard/index',
    path: 'dashboard',
    icon: 'index',
    sort: 1,
  });
  page({
    id: MENU.center,
    pid: null,
    title: '个人中心',
    name: 'UserCenter',
    component: 'system/user/center',
    path: 'user/center',
    icon: 'user',
    sort: 2,
    hidden: true,
  });
  // Renaming the company behind an account (POST /api/companyApi/update with a new name).
  buttons(MENU.center, MENU.center * 10 + 1, '企业名称', [['修改', 'company:edit']]);

  dir(MENU.messages, '消息中心', 'message', 'message', 10);
  page({
    id: MENU.systemMessage,
    pid: MENU.messages,
    title: '系统消息',
    name: 'SystemMessage',
    component: 'message/systemMessage',
    path: 'systemMessage',
    icon: 'notice',
    sort: 1,
  });
  // The leave-message inbox over the store POST /api/leaveMessage writes, not the screen's view table.
  screenPage(97, MENU.messages, 2, 'chat', false, LEAVE_MESSAGES_COMPONENT);
  viewPage('leaveMessage', MENU.messages, 3, 'edit');

  dir(MENU.waste, '危废管理', 'waste', 'waste', 20);
  viewPage('stockIn', MENU.waste, 1, 'in');
  viewPage('stockOut', MENU.waste, 2, 'out');
  viewPage('warehouse', MENU.waste, 3, 'warehouse');

  dir(MENU.dispose, '处置管理', 'dispose', 'dispose', 30);
  viewPage('disposalInquiry', MENU.dispose, 1, 'inquiry');
  viewPage('contract', MENU.dispose, 2, 'contract');
  viewPage('disposalOrder', MENU.dispose, 3, 'order');
  // The disposal orders again, as a screen: reached from the list buttons that open it, not from the
  // sidebar, where it would be a second 处置订单.
  screenPage(30, MENU.dispose, 4, 'form', true);

  dir(MENU.logistics, '物流管理', 'logistics', 'logistics', 40);
  viewPage('vehicle', MENU.logistics, 1, 'vehicle');
  viewPage('logisticsOrder', MENU.logistics, 2, 'order');
  // A detail page reached from order lists (?id=), never from the sidebar.
  screenPage(25, MENU.logistics, 3, 'detail', true, LOGISTICS_DETAIL_COMPONENT);

  screenPage(40, null, 45, 'stock');

  dir(MENU.screens, '数据大屏', 'screen', 'chart', 50);
  screenPage(50, MENU.screens, 1, 'monitor');

  dir(MENU.lowcode, '低代码', 'dev-tools', 'dev', 60);
  page({
    id: MENU.generation,
    pid: MENU.lowcode,
    title: '视图管理',
    name: 'Generation',
    component: 'dev-tools/generation',
    path: 'generation',
    icon: 'table',
    permission: 'generation:list',
    sort: 1,
  });
  buttons(MENU.generation, 611, '视图', [
    ['新增', 'generation:add'],
    ['编辑', 'generation:edit'],
    ['删除', 'generation:del'],
    ['设计', 'generation:design'],
    ['发布', 'generation:publish'],
  ]);
  page({
    id: MENU.screen,
    pid: MENU.lowcode,
    title: '大屏管理',
    name: 'Screen',
    component: 'dev-tools/screen',
    path: 'screen',
    icon: 'monitor',
    permission: 'screen:list',
    sort: 2,
  });
  buttons(MENU.screen, 621, '大屏', [
    ['新增', 'screen:add'],
    ['编辑', 'screen:edit'],
    ['删除', 'screen:del'],
    ['设计', 'screen:design'],
  ]);
  page({
    id: MENU.dataView,
    pid: MENU.lowcode,
    title: '数据视图',
    name: 'DataView',
    component: 'dev-tools/dataView',
    path: 'dataView',
    icon: 'sqlMonitor',
    permission: 'dataView:list',
    sort: 3,
  });
  buttons(MENU.dataView, 631, '数据视图', [
    ['新增', 'dataView:add'],
    ['编辑', 'dataView:edit'],
    ['删除', 'dataView:del'],
  ]);
  page({
    id: MENU.preview,
    pid: MENU.lowcode,
    title: '视图预览',
    name: 'Preview',
    component: 'dev-tools/preview',
    path: 'preview',
    icon: 'eye',
    sort: 4,
    hidden: true,
  });
  page({
    id: MENU.lsDesign,
    pid: MENU.lowcode,
    title: '大屏设计',
    name: 'LsDesign',
    component: 'lsDesign/index',
    path: '/lsDesign',
    icon: 'design',
    sort: 5,
    hidden: true,
  });
  // Under 危废管理, which every role printing labels has: the labels go on its containers.
  page({
    id: MENU.qrcodePrint,
    pid: MENU.waste,
    title: '打印二维码',
    name: 'QrcodePrint',
    component: 'qrcode/print',
    path: '/qrcode/print',
    icon: 'qrcode',
    permission: 'qrcode:print',
    sort: 9,
  });

  dir(MENU.system, '系统管理', 'system', 'system', 70);
  const admin: [number, string, string, string, string][] = [
    [MENU.user, '用户管理', 'user', 'User', 'peoples'],
    [MENU.role, '角色管理', 'role', 'Role', 'role'],
    [MENU.menu, '菜单管理', 'menu', 'Menu', 'menu'],
    [MENU.dept, '部门管理', 'dept', 'Dept', 'dept'],
    [MENU.dict, '字典管理', 'dict', 'Dict', 'dictionary'],
  ];
  admin.forEach(([id, title, key, name, icon], i) => {
    page({ id, pid: MENU.system, title, name, component: `system/${key}/index`, path: key, icon, permission: `${key}:list`, sort: i + 1 });
    buttons(id, id * 10 + 1, title.replace('管理', ''), [
      ['新增', `${key}:add`],
      ['编辑', `${key}:edit`],
      ['删除', `${key}:del`],
    ]);
  });
  page({
    id: MENU.companyApply,
    pid: MENU.system,
    title: '企业入驻审核',
    name: 'CompanyApply',
    component: 'system/companyApply/index',
    path: 'companyApply',
    icon: 'audit',
    permission: 'companyApply:list',
    sort: admin.length + 1,
  });
  buttons(MENU.companyApply, MENU.companyApply * 10 + 1, '入驻申请', [
    ['通过', 'companyApply:approve'],
    ['驳回', 'companyApply:reject'],
  ]);

  // The supervisory home's tiles and pies open these pages by their route names: the producing
  // companies behind a figure, and the records behind a yearly count (their views' list pages).
  dir(MENU.supervision, '监管服务', 'supervision', 'chart', 15);
  const companies = { component: 'supervision/company/index', pid: MENU.supervision };
  page({ ...companies, id: MENU.summaryPage, title: '小微企业汇总', name: 'summaryPage', path: 'summaryPage', icon: 'stock', sort: 1 });
  page({ ...companies, id: MENU.companyMange, title: '企业管理', name: 'companyMange', path: 'companyMange', icon: 'list', sort: 2 });
  const records = (id: number, name: string, title: string, viewName: ComponentName, icon: string, sort: number) =>
    page({ id, pid: MENU.supervision, title, name, component: 'dev-tools/temp/page', path: viewPath(name, view(viewName).id), icon, sort });
  records(MENU.contractManage, 'contractManage', '合同监管', 'contract', 'contract', 3);
  records(MENU.microServe, 'microServe', '服务监管', 'disposalOrder', 'order', 4);
  records(MENU.inventoryReview, 'inventoryReview', '转运监管', 'logisticsOrder', 'logistics', 5);
  return out;
}

/** The page menu of a view with all its buttons, or with the read-only ones (look, advanced query). */
const viewFull = (name: ComponentName) => [viewMenuId(view(name).id), ...VIEW_ACTIONS.map((a) => viewButtonId(view(name).id, a))];
const viewRead = (name: ComponentName) => [
  viewMenuId(view(name).id),
  viewButtonId(view(name).id, 'look'),
  viewButtonId(view(name).id, 'pre'),
];

function roleMenus(all: MenuSeed[]): Record<number, number[]> {
  const common = [MENU.dashboard, MENU.center, MENU.messages, MENU.systemMessage, screenMenuId(97), ...viewFull('leaveMessage')];
  // A company's own roles may rename their company.
  const company = [...common, MENU.center * 10 + 1];
  // 危废管理 with these views, and 处置管理 with the inquiries, then the contracts and orders, and the orders' screen.
  const waste = (access: typeof viewFull, ...names: ComponentName[]) => [MENU.waste, ...names.flatMap(access)];
  const dispose = (inquiries: typeof viewFull, contracts: typeof viewFull) => [
    MENU.dispose,
    ...inquiries('disposalInquiry'),
    ...contracts('contract'),
    ...contracts('disposalOrder'),
    screenMenuId(30),
  ];
  // A company that ships waste follows its logistics orders and screens, and prints QR codes.
  const shipper = [...company, MENU.logistics, ...viewRead('logisticsOrder'), screenMenuId(25), screenMenuId(40), MENU.qrcodePrint];
  return {
    [ROLE.superAdmin]: all.map((m) => m.id),
    [ROLE.supervisor]: [
      ...common,
      MENU.supervision,
      MENU.summaryPage,
      MENU.contractManage,
      MENU.microServe,
      MENU.inventoryReview,
      MENU.companyMange,
      ...waste(viewRead, 'stockIn', 'stockOut', 'warehouse'),
      ...dispose(viewRead, viewRead),
      MENU.logistics,
      ...viewRead('vehicle'),
      ...viewRead('logisticsOrder'),
      screenMenuId(25),
      screenMenuId(40),
      MENU.screens,
      screenMenuId(50),
    ],
    [ROLE.producer]: [...shipper, ...waste(viewFull, 'stockIn', 'stockOut', 'warehouse'), ...dispose(viewFull, viewRead)],
    [ROLE.disposer]: [...shipper, ...waste(viewRead, 'stockIn', 'stockOut'), ...dispose(viewFull, viewFull)],
    // A carrier reads the disposal orders that name it as their carrier, and writes their waybills.
    [ROLE.logistics]: [
      ...company,
      MENU.logistics,
      ...viewFull('vehicle'),
      ...viewFull('logisticsOrder'),
      screenMenuId(25),
      MENU.dispose,
      ...viewRead('disposalOrder'),
    ],
    [ROLE.collector]: [...shipper, ...waste(viewFull, 'stockIn', 'stockOut', 'warehouse')],
  };
}

async function bumpSequence(trx: Transaction<DB>, table: 'sys_dept' | 'sys_role' | 'sys_menu' | 'sys_user' | 'company') {
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(trx);
}

export async function seedAccounts(trx: Transaction<DB>): Promise<void> {
  await trx
    .insertInto('sys_setting')
    .values([
      { name: 'inited', value: '1' },
      { name: 'system_name', value: '危废智慧监管服务平台' },
    ])
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();

  // The business seed fills in these companies; the accounts below need the rows to exist first.
  await trx
    .insertInto('company')
    .values([
      {
        id: COMPANY.producer,
        name: '苏州华瑞精细化工有限公司',
        type: '1',
        region: '320000,320500,320505',
        region_fmt: '江苏省/苏州市/虎丘区',
      },
      {
        id: COMPANY.disposer,
        name: '江苏绿源环保科技有限公司',
        type: '2',
        region: '320000,320100,320115',
        region_fmt: '江苏省/南京市/江宁区',
      },
      {
        id: COMPANY.logistics,
        name: '南京顺安危险品运输有限公司',
        type: '3',
        region: '320000,320100,320111',
        region_fmt: '江苏省/南京市/浦口区',
      },
      {
        id: COMPANY.collector,
        name: '无锡新吴区危废集中收集点',
        type: '4',
        region: '320000,320200,320214',
        region_fmt: '江苏省/无锡市/新吴区',
      },
      {
        id: COMPANY.producer2,
        name: '常州东方电镀有限公司',
        type: '1',
        region: '320000,320400,320411',
        region_fmt: '江苏省/常州市/新北区',
      },
      {
        id: COMPANY.disposer2,
        name: '南通清源固废处置有限公司',
        type: '2',
        region: '320000,320600,320685',
        region_fmt: '江苏省/南通市/海安市',
      },
    ])
    .execute();

  // The platform's own departments, then each demo company's: a company owns its department tree.
  await trx
    .insertInto('sys_dept')
    .values([
      { id: DEPT.platform, pid: null, name: '江苏省危废综合服务平台', code: null, sort: 1 },
      { id: DEPT.supervision, pid: DEPT.platform, name: '监管部门', code: '01', sort: 1 },
      { id: DEPT.sysadmin, pid: DEPT.platform, name: '系统管理部', code: '09', sort: 9 },
      { id: DEPT.suzhou, pid: DEPT.supervision, name: '苏州市监管科', code: '0101', sort: 1 },
      { id: DEPT.nanjing, pid: DEPT.supervision, name: '南京市监管科', code: '0102', sort: 2 },
      { id: DEPT.service, pid: null, name: '技术服务中心', code: '10', sort: 2 },
      { id: DEPT.ops, pid: DEPT.service, name: '运维保障组', code: '1001', sort: 1 },
      { id: DEPT.producers, pid: null, name: '产废企业部', code: '02', sort: 2, company_id: COMPANY.producer },
      { id: DEPT.disposers, pid: null, name: '处置企业部', code: '03', sort: 3, company_id: COMPANY.disposer },
      { id: DEPT.logistics, pid: null, name: '物流企业部', code: '04', sort: 4, company_id: COMPANY.logistics },
      { id: DEPT.collectors, pid: null, name: '收集点', code: '05', sort: 5, company_id: COMPANY.collector },
      { id: DEPT.producer2, pid: null, name: '常州东方电镀有限公司', code: '0202', sort: 6, company_id: COMPANY.producer2 },
      { id: DEPT.disposer2, pid: null, name: '南通清源固废处置有限公司', code: '0302', sort: 7, company_id: COMPANY.disposer2 },
    ])
    .execute();

  await trx
    .insertInto('sys_role')
    .values([
      { id: ROLE.superAdmin, name: '超级管理员', level: 1, description: '拥有全部菜单与操作权限', data_scope: '全部' },
      { id: ROLE.supervisor, name: '监管人员', level: 2, description: '查看辖区企业的危废、处置与物流数据', data_scope: '全部' },
      { id: ROLE.producer, name: '产废企业', level: 3, description: '危废入库、出库、仓库管理与处置询价', data_scope: '本企业' },
      { id: ROLE.disposer, name: '处置企业', level: 3, description: '处置询价报价、合同与处置订单', data_scope: '本企业' },
      { id: ROLE.logistics, name: '物流企业', level: 3, description: '车辆与物流订单', data_scope: '本企业' },
      { id: ROLE.collector, name: '收集点', level: 3, description: '收集点危废出入库与仓库管理', data_scope: '本企业' },
    ])
    .execute();

  const menus = menuSeeds();
  await trx
    .insertInto('sys_menu')
    .values(menus.map((m) => ({ ...MENU_DEFAULTS, ...m })))
    .execute();
  const links = Object.entries(roleMenus(menus)).flatMap(([roleId, ids]) =>
    [...new Set(ids)].map((menu_id) => ({ role_id: Number(roleId), menu_id })),
  );
  await trx.insertInto('sys_roles_menus').values(links).execute();

  const users: {
    id: number;
    username: string;
    nick_name: string;
    phone: string;
    email: string;
    sex: '男' | '女';
    dept_id: number;
    job: string;
    is_admin?: boolean;
    permission?: string;
    company_id?: number;
    agreement_accepted?: boolean;
    passwordAgeDays?: number;
    roles: number[];
  }[] = [
    {
      id: USER.admin,
      username: 'admin',
      nick_name: '管理员',
      phone: '13951800001',
      email: 'admin@wastegen.cn',
      sex: '男',
      dept_id: DEPT.sysadmin,
      job: '系统管理员',
      is_admin: true,
      roles: [ROLE.superAdmin],
    },
    {
      id: USER.supervisor,
      username: 'supervisor',
      nick_name: '周建国',
      phone: '13951800002',
      email: 'zhoujianguo@wastegen.cn',
      sex: '男',
      dept_id: DEPT.supervision,
      job: '监管科长',
      roles: [ROLE.supervisor],
    },
    {
      id: USER.producer,
      username: 'producer',
      nick_name: '王丽华',
      phone: '13862100003',
      email: 'wanglihua@huarui-chem.cn',
      sex: '女',
      dept_id: DEPT.producers,
      job: '环保专员',
      company_id: COMPANY.producer,
      roles: [ROLE.producer],
    },
    {
      id: USER.disposer,
      username: 'disposer',
      nick_name: '陈志强',
      phone: '13776600004',
      email: 'chenzhiqiang@lvyuan-env.cn',
      sex: '男',
      dept_id: DEPT.disposers,
      job: '业务经理',
      company_id: COMPANY.disposer,
      roles: [ROLE.disposer],
    },
    {
      id: USER.logistics,
      username: 'logistics',
      nick_name: '刘海涛',
      phone: '15850500005',
      email: 'liuhaitao@shunan-trans.cn',
      sex: '男',
      dept_id: DEPT.logistics,
      job: '调度主管',
      permission: 'logistics',
      company_id: COMPANY.logistics,
      roles: [ROLE.logistics],
    },
    {
      id: USER.collector,
      username: 'collector',
      nick_name: '张秀英',
      phone: '18915300006',
      email: 'zhangxiuying@wx-collect.cn',
      sex: '女',
      dept_id: DEPT.collectors,
      job: '收集点负责人',
      permission: 'collectionPoint',
      company_id: COMPANY.collector,
      roles: [ROLE.collector],
    },
    {
      id: USER.expired,
      username: 'expired',
      nick_name: '赵明轩',
      phone: '13915000007',
      email: 'zhaomingxuan@dongfang-ep.cn',
      sex: '男',
      dept_id: DEPT.producer2,
      job: '仓库管理员',
      company_id: COMPANY.producer2,
      passwordAgeDays: 200,
      roles: [ROLE.producer],
    },
    {
      id: USER.newcomer,
      username: 'newcomer',
      nick_name: '孙晓燕',
      phone: '18262700008',
      email: 'sunxiaoyan@qingyuan-sw.cn',
      sex: '女',
      dept_id: DEPT.disposer2,
      job: '商务专员',
      company_id: COMPANY.disposer2,
      agreement_accepted: false,
      roles: [ROLE.disposer],
    },
    {
      id: USER.guest,
      username: 'guest',
      nick_name: '吴思远',
      phone: '17751200009',
      email: 'wusiyuan@wastegen.cn',
      sex: '男',
      dept_id: DEPT.ops,
      job: '实习生',
      roles: [],
    },
  ];
  const hashes = await Promise.all(users.map(() => hashPassword(DEMO_PASSWORD)));
  await trx
    .insertInto('sys_user')
    .values(
      users.map(({ roles: _roles, passwordAgeDays, ...u }, i) => ({
        ...u,
        password: hashes[i] as string,
        pwd_reset_time: sql<Date>`now() - make_interval(days => ${passwordAgeDays ?? 0})`,
      })),
    )
    .execute();
  await trx
    .insertInto('sys_users_roles')
    .values(users.flatMap((u) => u.roles.map((role_id) => ({ user_id: u.id, role_id }))))
    .execute();

  for (const t of ['sys_dept', 'sys_role', 'sys_menu', 'sys_user', 'company'] as const) await bumpSequence(trx, t);
}
