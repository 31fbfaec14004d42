/** Every resource of the API contract, one file each. The server, the API document and the contract test read this list. */

import { dashboard } from './dashboard.js';
import { dataViews } from './data-views.js';
import type { ResourceSpec } from './define.js';
import { general } from './general.js';
import { generation } from './generation.js';
import { screenShare } from './screen-share.js';
import { screens } from './screens.js';
import { users } from './users.js';

export const RESOURCES: readonly ResourceSpec[] = [users, generation, screens, screenShare, dataViews, general, dashboard];
