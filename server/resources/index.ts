import type { RouteModule } from '../routes/index.js';
import companies from './companies.js';
import companyApi from './company-api.js';
import companyBank from './company-bank.js';
import companyContracts from './company-contracts.js';
import contacts from './contacts.js';
import disposalProcesses from './disposal-processes.js';
import regions from './regions.js';
import users from './users.js';
import warehouses from './warehouses.js';
import wasteCategories from './waste-categories.js';

/** The server's resources, each implementing one contract of src/contract. */
export const resourceModules: RouteModule[] = [
  users,
  regions,
  warehouses,
  contacts,
  companies,
  wasteCategories,
  disposalProcesses,
  companyContracts,
  companyBank,
  companyApi,
];
