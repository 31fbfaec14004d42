import type { RouteModule } from '../routes/index.js';
import bulletin from './bulletin.js';
import files from './files.js';
import health from './health.js';
import messages from './messages.js';
import privacyPolicy from './privacy-policy.js';
import session from './session.js';
import site from './site.js';
import users from './users.js';
import visits from './visits.js';

/** The server's resources, each implementing one contract of src/contract. */
export const resourceModules: RouteModule[] = [users, health, session, site, privacyPolicy, visits, files, messages, bulletin];
