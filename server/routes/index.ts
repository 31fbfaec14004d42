import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import accountExtras from './account-extras.js';
import bulletin from './bulletin.js';
import companyApi from './company-api.js';
import companyApplication from './company-application.js';
import companyBank from './company-bank.js';
import companyInventory from './company-inventory.js';
import companyWarehouse from './company-warehouse.js';
import depts from './depts.js';
import dict from './dict.js';
import disposalOrder from './disposal-order.js';
import disposalQuote from './disposal-quote.js';
import files from './files.js';
import fillingStandIn from './filling-stand-in.js';
import fillingSystem from './filling-system.js';
import health from './health.js';
import inventoryConfig from './inventory-config.js';
import logistics from './logistics.js';
import logisticsWarehouses from './logistics-warehouses.js';
import logs from './logs.js';
import lookups from './lookups.js';
import materialsCode from './materials-code.js';
import menus from './menus.js';
import messages from './messages.js';
import privacyPolicy from './privacy-policy.js';
import profile from './profile.js';
import roles from './roles.js';
import session from './session.js';
import site from './site.js';
import supervision from './supervision.js';
import testingApplication from './testing-application.js';
import userCenter from './user-center.js';
import visits from './visits.js';
import websocket from './websocket.js';

export type RouteModule = (app: App, ctx: AppContext) => Promise<void>;

/** Every route module of the reference server. */
export const routeModules: RouteModule[] = [
  health,
  session,
  profile,
  logs,
  menus,
  depts,
  roles,
  dict,
  files,
  messages,
  companyApplication,
  privacyPolicy,
  visits,
  lookups,
  websocket,
  bulletin,
  companyWarehouse,
  inventoryConfig,
  logistics,
  logisticsWarehouses,
  companyApi,
  companyBank,
  fillingSystem,
  fillingStandIn,
  site,
  supervision,
  disposalOrder,
  companyInventory,
  disposalQuote,
  testingApplication,
  materialsCode,
  accountExtras,
  userCenter,
];
