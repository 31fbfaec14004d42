import type { RouteModule } from '../routes/index.js';
import users from './users.js';

/** The server's resources, each implementing one contract of src/contract. */
export const resourceModules: RouteModule[] = [users];
