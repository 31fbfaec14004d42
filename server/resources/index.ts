import type { RouteModule } from '../routes/index.js';
import depts from './depts.js';
import dict from './dict.js';
import logs from './logs.js';
import menus from './menus.js';
import passwords from './passwords.js';
import roles from './roles.js';
import users from './users.js';

/** The server's resources, each implementing one contract of src/contract. */
export const resourceModules: RouteModule[] = [users, roles, menus, depts, dict, logs, passwords];
