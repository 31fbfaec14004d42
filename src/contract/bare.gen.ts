// Written by `npm run docs:openapi` from the contract (src/contract/<resource>.ts); do not edit.
// Each call without its shapes, typed by its declaration, for app code that loads no zod.
import type { BareCall } from './define';
import type { bulletin as bulletin$ } from './bulletin';
import type { companies as companies$ } from './companies';
import type { companyApi as companyApi$ } from './company-api';
import type { companyBank as companyBank$ } from './company-bank';
import type { companyContracts as companyContracts$ } from './company-contracts';
import type { contacts as contacts$ } from './contacts';
import type { dashboard as dashboard$ } from './dashboard';
import type { dataViews as dataViews$ } from './data-views';
import type { depts as depts$ } from './depts';
import type { dict as dict$ } from './dict';
import type { disposalProcesses as disposalProcesses$ } from './disposal-processes';
import type { files as files$ } from './files';
import type { general as general$ } from './general';
import type { generation as generation$ } from './generation';
import type { health as health$ } from './health';
import type { logs as logs$ } from './logs';
import type { menus as menus$ } from './menus';
import type { messages as messages$ } from './messages';
import type { passwords as passwords$ } from './passwords';
import type { privacyPolicy as privacyPolicy$ } from './privacy-policy';
import type { regions as regions$ } from './regions';
import type { roles as roles$ } from './roles';
import type { screenShare as screenShare$ } from './screen-share';
import type { screens as screens$ } from './screens';
import type { session as session$ } from './session';
import type { site as site$ } from './site';
import type { users as users$ } from './users';
import type { visits as visits$ } from './visits';
import type { warehouses as warehouses$ } from './warehouses';
import type { wasteCategories as wasteCategories$ } from './waste-categories';

export const bulletin = {
  list: { method: 'GET', path: '/api/bulletin' } as BareCall<(typeof bulletin$)['calls']['list']>,
  add: { method: 'POST', path: '/api/bulletin' } as BareCall<(typeof bulletin$)['calls']['add']>,
  edit: { method: 'PUT', path: '/api/bulletin' } as BareCall<(typeof bulletin$)['calls']['edit']>,
  remove: { method: 'DELETE', path: '/api/bulletin' } as BareCall<(typeof bulletin$)['calls']['remove']>,
  addView: { method: 'POST', path: '/api/viewsNum/add' } as BareCall<(typeof bulletin$)['calls']['addView']>,
} as const;

export const companies = {
  list: { method: 'GET', path: '/api/company/list' } as BareCall<(typeof companies$)['calls']['list']>,
} as const;

export const companyApi = {
  info: { method: 'GET', path: '/api/companyApi/info' } as BareCall<(typeof companyApi$)['calls']['info']>,
  update: { method: 'POST', path: '/api/companyApi/update' } as BareCall<(typeof companyApi$)['calls']['update']>,
} as const;

export const companyBank = {
  info: { method: 'GET', path: '/api/companyBank/info' } as BareCall<(typeof companyBank$)['calls']['info']>,
  save: { method: 'PUT', path: '/api/companyBank' } as BareCall<(typeof companyBank$)['calls']['save']>,
} as const;

export const companyContracts = {
  effective: { method: 'GET', path: '/api/disposalOrder/effectiveContract' } as BareCall<(typeof companyContracts$)['calls']['effective']>,
  expiring: { method: 'GET', path: '/api/expiringContracts' } as BareCall<(typeof companyContracts$)['calls']['expiring']>,
} as const;

export const contacts = {
  list: { method: 'GET', path: '/api/companyLinkman/list' } as BareCall<(typeof contacts$)['calls']['list']>,
} as const;

export const dashboard = {
  inventory: { method: 'GET', path: '/api/inventoryInfo' } as BareCall<(typeof dashboard$)['calls']['inventory']>,
  inventoryRatio: { method: 'GET', path: '/api/inventoryRatio' } as BareCall<(typeof dashboard$)['calls']['inventoryRatio']>,
  orders: { method: 'GET', path: '/api/produceOrderDashboard' } as BareCall<(typeof dashboard$)['calls']['orders']>,
  finance: { method: 'GET', path: '/api/finAcc/dashboard' } as BareCall<(typeof dashboard$)['calls']['finance']>,
} as const;

export const dataViews = {
  list: { method: 'GET', path: '/api/data/list' } as BareCall<(typeof dataViews$)['calls']['list']>,
  detail: { method: 'GET', path: '/api/data/detail' } as BareCall<(typeof dataViews$)['calls']['detail']>,
  columns: { method: 'GET', path: '/api/data/columns' } as BareCall<(typeof dataViews$)['calls']['columns']>,
  add: { method: 'POST', path: '/api/data/add' } as BareCall<(typeof dataViews$)['calls']['add']>,
  update: { method: 'POST', path: '/api/data/update' } as BareCall<(typeof dataViews$)['calls']['update']>,
  run: { method: 'POST', path: '/api/data/run' } as BareCall<(typeof dataViews$)['calls']['run']>,
  remove: { method: 'POST', path: '/api/data/delete' } as BareCall<(typeof dataViews$)['calls']['remove']>,
} as const;

export const depts = {
  children: { method: 'GET', path: '/api/dept/list' } as BareCall<(typeof depts$)['calls']['children']>,
  tree: { method: 'GET', path: '/api/dept/find' } as BareCall<(typeof depts$)['calls']['tree']>,
  list: { method: 'GET', path: '/api/dept' } as BareCall<(typeof depts$)['calls']['list']>,
  add: { method: 'POST', path: '/api/dept' } as BareCall<(typeof depts$)['calls']['add']>,
  edit: { method: 'PUT', path: '/api/dept' } as BareCall<(typeof depts$)['calls']['edit']>,
  remove: { method: 'DELETE', path: '/api/dept' } as BareCall<(typeof depts$)['calls']['remove']>,
} as const;

export const dict = {
  entries: { method: 'GET', path: '/api/dictDetail' } as BareCall<(typeof dict$)['calls']['entries']>,
  entryMap: { method: 'GET', path: '/api/dictDetail/map' } as BareCall<(typeof dict$)['calls']['entryMap']>,
  publicEntries: { method: 'GET', path: '/api/dictDetail/getDictNotLogin' } as BareCall<(typeof dict$)['calls']['publicEntries']>,
  addEntry: { method: 'POST', path: '/api/dictDetail' } as BareCall<(typeof dict$)['calls']['addEntry']>,
  editEntry: { method: 'PUT', path: '/api/dictDetail' } as BareCall<(typeof dict$)['calls']['editEntry']>,
  removeEntry: { method: 'DELETE', path: '/api/dictDetail/:id' } as BareCall<(typeof dict$)['calls']['removeEntry']>,
  list: { method: 'GET', path: '/api/dict' } as BareCall<(typeof dict$)['calls']['list']>,
  add: { method: 'POST', path: '/api/dict' } as BareCall<(typeof dict$)['calls']['add']>,
  edit: { method: 'PUT', path: '/api/dict' } as BareCall<(typeof dict$)['calls']['edit']>,
  remove: { method: 'DELETE', path: '/api/dict' } as BareCall<(typeof dict$)['calls']['remove']>,
} as const;

export const disposalProcesses = {
  primary: { method: 'GET', path: '/api/getUserProcessPrimary' } as BareCall<(typeof disposalProcesses$)['calls']['primary']>,
  under: { method: 'GET', path: '/api/getUserProcess' } as BareCall<(typeof disposalProcesses$)['calls']['under']>,
} as const;

export const files = {
  upload: { method: 'POST', path: '/api/file/upload', multipart: true } as BareCall<(typeof files$)['calls']['upload']>,
  preview: { method: 'GET', path: '/api/file/preview', file: true } as BareCall<(typeof files$)['calls']['preview']>,
  openImage: { method: 'GET', path: '/api/open/image', file: true } as BareCall<(typeof files$)['calls']['openImage']>,
  download: { method: 'GET', path: '/api/file/download', file: true } as BareCall<(typeof files$)['calls']['download']>,
} as const;

export const general = {
  list: { method: 'GET', path: '/api/general/list/:viewId' } as BareCall<(typeof general$)['calls']['list']>,
  detail: { method: 'GET', path: '/api/general/detail' } as BareCall<(typeof general$)['calls']['detail']>,
  add: { method: 'POST', path: '/api/general/add/:viewId' } as BareCall<(typeof general$)['calls']['add']>,
  addPut: { method: 'PUT', path: '/api/general/add/:viewId' } as BareCall<(typeof general$)['calls']['addPut']>,
  update: { method: 'POST', path: '/api/general/update/:viewId' } as BareCall<(typeof general$)['calls']['update']>,
  updatePut: { method: 'PUT', path: '/api/general/update/:viewId' } as BareCall<(typeof general$)['calls']['updatePut']>,
  remove: { method: 'POST', path: '/api/general/delete/:viewId' } as BareCall<(typeof general$)['calls']['remove']>,
  queryLink: { method: 'GET', path: '/api/general/allList/:viewId/queryLink' } as BareCall<(typeof general$)['calls']['queryLink']>,
  groovy: { method: 'POST', path: '/api/general/groovy/:viewId' } as BareCall<(typeof general$)['calls']['groovy']>,
  preAdd: { method: 'POST', path: '/api/general/preAdd/:viewId' } as BareCall<(typeof general$)['calls']['preAdd']>,
  import: { method: 'POST', path: '/api/general/:viewId/import', file: true, multipart: true } as BareCall<(typeof general$)['calls']['import']>,
  template: { method: 'GET', path: '/api/general/:viewId/template', file: true } as BareCall<(typeof general$)['calls']['template']>,
  download: { method: 'GET', path: '/api/general/:viewId/download', file: true } as BareCall<(typeof general$)['calls']['download']>,
  exportDownload: { method: 'GET', path: '/api/general/export/:viewId/download', file: true } as BareCall<(typeof general$)['calls']['exportDownload']>,
  formData: { method: 'GET', path: '/api/general/formData' } as BareCall<(typeof general$)['calls']['formData']>,
  dynamicQuery: { method: 'GET', path: '/api/general/dynamicQuery' } as BareCall<(typeof general$)['calls']['dynamicQuery']>,
} as const;

export const generation = {
  list: { method: 'GET', path: '/api/generation/list' } as BareCall<(typeof generation$)['calls']['list']>,
  detail: { method: 'GET', path: '/api/generation/detail' } as BareCall<(typeof generation$)['calls']['detail']>,
  add: { method: 'POST', path: '/api/generation/add' } as BareCall<(typeof generation$)['calls']['add']>,
  update: { method: 'POST', path: '/api/generation/update' } as BareCall<(typeof generation$)['calls']['update']>,
  remove: { method: 'POST', path: '/api/generation/delete' } as BareCall<(typeof generation$)['calls']['remove']>,
  design: { method: 'POST', path: '/api/generation/design' } as BareCall<(typeof generation$)['calls']['design']>,
  publish: { method: 'POST', path: '/api/generation/publish' } as BareCall<(typeof generation$)['calls']['publish']>,
} as const;

export const health = {
  get: { method: 'GET', path: '/api/health' } as BareCall<(typeof health$)['calls']['get']>,
} as const;

export const logs = {
  mine: { method: 'GET', path: '/api/logs/user' } as BareCall<(typeof logs$)['calls']['mine']>,
} as const;

export const menus = {
  build: { method: 'GET', path: '/api/menus/build' } as BareCall<(typeof menus$)['calls']['build']>,
  tree: { method: 'GET', path: '/api/menus/tree' } as BareCall<(typeof menus$)['calls']['tree']>,
  list: { method: 'GET', path: '/api/menus' } as BareCall<(typeof menus$)['calls']['list']>,
  add: { method: 'POST', path: '/api/menus' } as BareCall<(typeof menus$)['calls']['add']>,
  edit: { method: 'PUT', path: '/api/menus' } as BareCall<(typeof menus$)['calls']['edit']>,
  remove: { method: 'DELETE', path: '/api/menus' } as BareCall<(typeof menus$)['calls']['remove']>,
} as const;

export const messages = {
  sysPage: { method: 'GET', path: '/api/sysMessage/page' } as BareCall<(typeof messages$)['calls']['sysPage']>,
  sysReadAll: { method: 'GET', path: '/api/sysMessage/readAll' } as BareCall<(typeof messages$)['calls']['sysReadAll']>,
  sysReadOne: { method: 'GET', path: '/api/sysMessage/readOne' } as BareCall<(typeof messages$)['calls']['sysReadOne']>,
  unreadNum: { method: 'GET', path: '/api/sysMessage/getUnreadNum' } as BareCall<(typeof messages$)['calls']['unreadNum']>,
  sysDelete: { method: 'GET', path: '/api/sysMessage/deleteMsg' } as BareCall<(typeof messages$)['calls']['sysDelete']>,
  sysSend: { method: 'POST', path: '/api/sysMessage' } as BareCall<(typeof messages$)['calls']['sysSend']>,
  leaveUnread: { method: 'GET', path: '/api/unreadLeaveMessage' } as BareCall<(typeof messages$)['calls']['leaveUnread']>,
  leaveReadOne: { method: 'GET', path: '/api/leaveMessage/readOne' } as BareCall<(typeof messages$)['calls']['leaveReadOne']>,
  leave: { method: 'POST', path: '/api/leaveMessage' } as BareCall<(typeof messages$)['calls']['leave']>,
} as const;

export const passwords = {
  check: { method: 'GET', path: '/api/pwd/check' } as BareCall<(typeof passwords$)['calls']['check']>,
  save: { method: 'POST', path: '/api/pwd/save' } as BareCall<(typeof passwords$)['calls']['save']>,
  reset: { method: 'POST', path: '/api/pwd/reset' } as BareCall<(typeof passwords$)['calls']['reset']>,
  sendEmailCode: { method: 'POST', path: '/api/code/resetEmail' } as BareCall<(typeof passwords$)['calls']['sendEmailCode']>,
} as const;

export const privacyPolicy = {
  preview: { method: 'GET', path: '/api/privacyPolicy/preview' } as BareCall<(typeof privacyPolicy$)['calls']['preview']>,
} as const;

export const regions = {
  tree: { method: 'GET', path: '/api/region/regionTreeList' } as BareCall<(typeof regions$)['calls']['tree']>,
} as const;

export const roles = {
  list: { method: 'GET', path: '/api/roles' } as BareCall<(typeof roles$)['calls']['list']>,
  depts: { method: 'GET', path: '/api/roles/depts' } as BareCall<(typeof roles$)['calls']['depts']>,
  one: { method: 'GET', path: '/api/roles/:id' } as BareCall<(typeof roles$)['calls']['one']>,
  add: { method: 'POST', path: '/api/roles' } as BareCall<(typeof roles$)['calls']['add']>,
  edit: { method: 'PUT', path: '/api/roles' } as BareCall<(typeof roles$)['calls']['edit']>,
  grantMenus: { method: 'PUT', path: '/api/roles/menu' } as BareCall<(typeof roles$)['calls']['grantMenus']>,
  remove: { method: 'DELETE', path: '/api/roles' } as BareCall<(typeof roles$)['calls']['remove']>,
} as const;

export const screenShare = {
  share: { method: 'POST', path: '/api/screen/share' } as BareCall<(typeof screenShare$)['calls']['share']>,
  renewKey: { method: 'POST', path: '/api/screen/renewKey' } as BareCall<(typeof screenShare$)['calls']['renewKey']>,
  screen: { method: 'GET', path: '/api/open/getGeneralScreen' } as BareCall<(typeof screenShare$)['calls']['screen']>,
  cityInfo: { method: 'GET', path: '/api/open/getCityInfo' } as BareCall<(typeof screenShare$)['calls']['cityInfo']>,
  data: { method: 'GET', path: '/api/open/data' } as BareCall<(typeof screenShare$)['calls']['data']>,
} as const;

export const screens = {
  list: { method: 'GET', path: '/api/screen/list' } as BareCall<(typeof screens$)['calls']['list']>,
  detail: { method: 'GET', path: '/api/screen/detail' } as BareCall<(typeof screens$)['calls']['detail']>,
  add: { method: 'POST', path: '/api/screen/add' } as BareCall<(typeof screens$)['calls']['add']>,
  update: { method: 'POST', path: '/api/screen/update' } as BareCall<(typeof screens$)['calls']['update']>,
  remove: { method: 'POST', path: '/api/screen/delete' } as BareCall<(typeof screens$)['calls']['remove']>,
  design: { method: 'POST', path: '/api/screen/design' } as BareCall<(typeof screens$)['calls']['design']>,
} as const;

export const session = {
  initCheck: { method: 'GET', path: '/api/init/check' } as BareCall<(typeof session$)['calls']['initCheck']>,
  init: { method: 'POST', path: '/api/init' } as BareCall<(typeof session$)['calls']['init']>,
  captcha: { method: 'GET', path: '/api/auth/code' } as BareCall<(typeof session$)['calls']['captcha']>,
  publicKey: { method: 'GET', path: '/api/auth/publicKey', file: true } as BareCall<(typeof session$)['calls']['publicKey']>,
  login: { method: 'POST', path: '/api/auth/login', form: true } as BareCall<(typeof session$)['calls']['login']>,
  login1: { method: 'POST', path: '/api/auth/login1', form: true } as BareCall<(typeof session$)['calls']['login1']>,
  info: { method: 'GET', path: '/api/auth/info' } as BareCall<(typeof session$)['calls']['info']>,
  logout: { method: 'DELETE', path: '/api/auth/logout' } as BareCall<(typeof session$)['calls']['logout']>,
  enter: { method: 'GET', path: '/api/guFeiUrl/enter' } as BareCall<(typeof session$)['calls']['enter']>,
} as const;

export const site = {
  get: { method: 'GET', path: '/api/site' } as BareCall<(typeof site$)['calls']['get']>,
} as const;

export const users = {
  list: { method: 'GET', path: '/api/users' } as BareCall<(typeof users$)['calls']['list']>,
  add: { method: 'POST', path: '/api/users' } as BareCall<(typeof users$)['calls']['add']>,
  edit: { method: 'PUT', path: '/api/users' } as BareCall<(typeof users$)['calls']['edit']>,
  remove: { method: 'DELETE', path: '/api/users' } as BareCall<(typeof users$)['calls']['remove']>,
  search: { method: 'GET', path: '/api/users/search' } as BareCall<(typeof users$)['calls']['search']>,
  companies: { method: 'GET', path: '/api/users/companies' } as BareCall<(typeof users$)['calls']['companies']>,
  saveProfile: { method: 'PUT', path: '/api/users/center' } as BareCall<(typeof users$)['calls']['saveProfile']>,
  centerCities: { method: 'GET', path: '/api/users/center/cities' } as BareCall<(typeof users$)['calls']['centerCities']>,
  changePassword: { method: 'POST', path: '/api/users/updatePass', form: true } as BareCall<(typeof users$)['calls']['changePassword']>,
  passwordExpired: { method: 'GET', path: '/api/users/updatePass/:x' } as BareCall<(typeof users$)['calls']['passwordExpired']>,
  changeEmail: { method: 'POST', path: '/api/users/updateEmail/:code' } as BareCall<(typeof users$)['calls']['changeEmail']>,
  changeAvatar: { method: 'POST', path: '/api/users/updateAvatar', multipart: true } as BareCall<(typeof users$)['calls']['changeAvatar']>,
} as const;

export const visits = {
  record: { method: 'POST', path: '/api/visits' } as BareCall<(typeof visits$)['calls']['record']>,
  summary: { method: 'GET', path: '/api/visits' } as BareCall<(typeof visits$)['calls']['summary']>,
  chart: { method: 'GET', path: '/api/visits/chartData' } as BareCall<(typeof visits$)['calls']['chart']>,
} as const;

export const warehouses = {
  list: { method: 'GET', path: '/api/companyWarehouse/list' } as BareCall<(typeof warehouses$)['calls']['list']>,
  unloadingPoints: { method: 'GET', path: '/api/companyWarehouse/unloadingPoint' } as BareCall<(typeof warehouses$)['calls']['unloadingPoints']>,
  withStock: { method: 'GET', path: '/api/companyWarehouse/warehouse' } as BareCall<(typeof warehouses$)['calls']['withStock']>,
  inventory: { method: 'GET', path: '/api/companyWarehouse/Inventorys' } as BareCall<(typeof warehouses$)['calls']['inventory']>,
  ofLogisticsOrders: { method: 'GET', path: '/api/logisticsOrder/warehouses' } as BareCall<(typeof warehouses$)['calls']['ofLogisticsOrders']>,
} as const;

export const wasteCategories = {
  mine: { method: 'GET', path: '/api/myWasteCategory' } as BareCall<(typeof wasteCategories$)['calls']['mine']>,
  ofCompany: { method: 'GET', path: '/api/companyWasteCategory' } as BareCall<(typeof wasteCategories$)['calls']['ofCompany']>,
} as const;
