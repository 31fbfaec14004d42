import type { RouteModule } from '../routes/index.js';
import dashboard from './dashboard.js';
import dataViews from './data-views.js';
import general from './general.js';
import generation from './generation.js';
import screenShare from './screen-share.js';
import screens from './screens.js';
import users from './users.js';

/** The server's resources, each implementing one contract of src/contract. */
export const resourceModules: RouteModule[] = [users, generation, screens, screenShare, dataViews, general, dashboard];
