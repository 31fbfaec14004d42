import type { RouteModule } from '../routes/index.js';
import bulletin from './bulletin.js';
import companies from './companies.js';
import companyApi from './company-api.js';
import companyApplication from './company-application.js';
import companyBank from './company-bank.js';
import companyContracts from './company-contracts.js';
import companyInventory from './company-inventory.js';
import contacts from './contacts.js';
import dashboard from './dashboard.js';
import dataViews from './data-views.js';
import depts from './depts.js';
import dict from './dict.js';
import disposalOrder from './disposal-order.js';
import disposalProcesses from './disposal-processes.js';
import disposalQuote from './disposal-quote.js';
import files from './files.js';
import fillingSystem from './filling-system.js';
import general from './general.js';
import generation from './generation.js';
import health from './health.js';
import inventoryConfig from './inventory-config.js';
import logistics from './logistics.js';
import logs from './logs.js';
import materialsCode from './materials-code.js';
import menus from './menus.js';
import messages from './messages.js';
import passwords from './passwords.js';
import privacyPolicy from './privacy-policy.js';
import regions from './regions.js';
import roles from './roles.js';
import screenShare from './screen-share.js';
import screens from './screens.js';
import session from './session.js';
import site from './site.js';
import supervision from './supervision.js';
import testingApplication from './testing-application.js';
import users from './users.js';
import visits from './visits.js';
import warehouses from './warehouses.js';
import wasteCategories from './waste-categories.js';

/** The server's resources, each implementing one contract of src/contract. */
export const resourceModules: RouteModule[] = [
  bulletin,
  companies,
  companyApi,
  companyApplication,
  companyBank,
  companyContracts,
  companyInventory,
  contacts,
  dashboard,
  dataViews,
  depts,
  dict,
  disposalOrder,
  disposalProcesses,
  disposalQuote,
  files,
  fillingSystem,
  general,
  generation,
  health,
  inventoryConfig,
  logistics,
  logs,
  materialsCode,
  menus,
  messages,
  passwords,
  privacyPolicy,
  regions,
  roles,
  screenShare,
  screens,
  session,
  site,
  supervision,
  testingApplication,
  users,
  visits,
  warehouses,
  wasteCategories,
];
