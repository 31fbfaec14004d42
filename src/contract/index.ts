/** Every resource of the API contract, one file each. The server, the API document and the contract test read this list. */
import type { ResourceSpec } from './define.js';
import { depts } from './depts.js';
import { dict } from './dict.js';
import { logs } from './logs.js';
import { menus } from './menus.js';
import { passwords } from './passwords.js';
import { roles } from './roles.js';
import { users } from './users.js';

export const RESOURCES: readonly ResourceSpec[] = [users, roles, menus, depts, dict, logs, passwords];
