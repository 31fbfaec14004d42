/** Every resource of the API contract, one file each. The server, the API document and the contract test read this list. */
import { companies } from './companies.js';
import { companyApi } from './company-api.js';
import { companyBank } from './company-bank.js';
import { companyContracts } from './company-contracts.js';
import { contacts } from './contacts.js';
import type { ResourceSpec } from './define.js';
import { disposalProcesses } from './disposal-processes.js';
import { regions } from './regions.js';
import { users } from './users.js';
import { warehouses } from './warehouses.js';
import { wasteCategories } from './waste-categories.js';

export const RESOURCES: readonly ResourceSpec[] = [
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
