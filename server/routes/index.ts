import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import admin from './admin.js';
import dict from './dict.js';
import files from './files.js';
import general from './general.js';
import health from './health.js';
import lookups from './lookups.js';
import lowcode from './lowcode.js';
import messages from './messages.js';
import misc from './misc.js';
import screenShare from './screen-share.js';
import session from './session.js';
import websocket from './websocket.js';

export type RouteModule = (app: App, ctx: AppContext) => Promise<void>;

/** Every route module of the reference server. */
export const routeModules: RouteModule[] = [
  health,
  session,
  admin,
  dict,
  files,
  messages,
  misc,
  lookups,
  websocket,
  lowcode,
  screenShare,
  general,
];
