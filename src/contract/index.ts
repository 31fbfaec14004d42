/** Every resource of the API contract, one file each. The server, the API document and the contract test read this list. */

import { bulletin } from './bulletin.js';
import { companies } from './companies.js';
import { companyApi } from './company-api.js';
import { companyApplications } from './company-application.js';
import { companyBank } from './company-bank.js';
import { companyContracts } from './company-contracts.js';
import { companyInventory } from './company-inventory.js';
import { contacts } from './contacts.js';
import { dashboard } from './dashboard.js';
import { dataViews } from './data-views.js';
import type { ResourceSpec } from './define.js';
import { depts } from './depts.js';
import { dict } from './dict.js';
import { disposalOrders } from './disposal-order.js';
import { disposalProcesses } from './disposal-processes.js';
import { disposalQuotes } from './disposal-quote.js';
import { files } from './files.js';
import { fillingSystem } from './filling-system.js';
import { general } from './general.js';
import { generation } from './generation.js';
import { health } from './health.js';
import { inventoryConfig } from './inventory-config.js';
import { logistics } from './logistics.js';
import { logs } from './logs.js';
import { materialsCode } from './materials-code.js';
import { menus } from './menus.js';
import { messages } from './messages.js';
import { passwords } from './passwords.js';
import { privacyPolicy } from './privacy-policy.js';
import { regions } from './regions.js';
import { roles } from './roles.js';
import { screenShare } from './screen-share.js';
import { screens } from './screens.js';
import { session } from './session.js';
import { site } from './site.js';
import { supervision } from './supervision.js';
import { testingApplications } from './testing-application.js';
import { users } from './users.js';
import { visits } from './visits.js';
import { warehouses } from './warehouses.js';
import { wasteCategories } from './waste-categories.js';

export const RESOURCES: readonly ResourceSpec[] = [
  bulletin,
  companies,
  companyApi,
  companyApplications,
  companyBank,
  companyContracts,
  companyInventory,
  contacts,
  dashboard,
  dataViews,
  depts,
  dict,
  disposalOrders,
  disposalProcesses,
  disposalQuotes,
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
  testingApplications,
  users,
  visits,
  warehouses,
  wasteCategories,
];
