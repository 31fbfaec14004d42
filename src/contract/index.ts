/** Every resource of the API contract, one file each. The server, the API document and the contract test read this list. */
import { bulletin } from './bulletin.js';
import type { ResourceSpec } from './define.js';
import { files } from './files.js';
import { health } from './health.js';
import { messages } from './messages.js';
import { privacyPolicy } from './privacy-policy.js';
import { session } from './session.js';
import { site } from './site.js';
import { users } from './users.js';
import { visits } from './visits.js';

export const RESOURCES: readonly ResourceSpec[] = [users, health, session, site, privacyPolicy, visits, files, messages, bulletin];
