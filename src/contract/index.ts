/** Every resource of the API contract, one file each. The server, the API document and the contract test read this list. */
import type { ResourceSpec } from './define.js';
import { users } from './users.js';

export const RESOURCES: readonly ResourceSpec[] = [users];
