import type { RouteModule } from '../routes/index.js';
import bulletin from './bulletin.js';
import depts from './depts.js';
import dict from './dict.js';
import files from './files.js';
import health from './health.js';
import logs from './logs.js';
import menus from './menus.js';
import messages from './messages.js';
import passwords from './passwords.js';
import privacyPolicy from './privacy-policy.js';
import roles from './roles.js';
import session from './session.js';
import site from './site.js';
import users from './users.js';
import visits from './visits.js';

/** The server's resources, each implementing one contract of src/contract. */
export const resourceModules: RouteModule[] = [
  bulletin,
  depts,
  dict,
  files,
  health,
  logs,
  menus,
  messages,
  passwords,
  privacyPolicy,
  roles,
  session,
  site,
  users,
  visits,
];
