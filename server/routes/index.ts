import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import accountExtras from './account-extras.js';
import companyApi from './company-api.js';
import dashboard from './dashboard.js';
import depts from './depts.js';
import dict from './dict.js';
import disposal from './disposal.js';
import files from './files.js';
import general from './general.js';
import health from './health.js';
import logistics from './logistics.js';
import logs from './logs.js';
import lookups from './lookups.js';
import lowcode from './lowcode.js';
import menus from './menus.js';
import messages from './messages.js';
import misc from './misc.js';
import profile from './profile.js';
import roles from './roles.js';
import screenShare from './screen-share.js';
import session from './session.js';
import supervision from './supervision.js';
import userCenter from './user-center.js';
import users from './users.js';
import websocket from './websocket.js';

export type RouteModule = (app: App, ctx: AppContext) => Promise<void>;

/** Every route module of the reference server. */
export const routeModules: RouteModule[] = [
  health,
  session,
  users,
  profile,
  logs,
  menus,
  depts,
  roles,
  dict,
  files,
  messages,
  misc,
  lookups,
  websocket,
  lowcode,
  screenShare,
  general,
  dashboard,
  logistics,
  companyApi,
  supervision,
  disposal,
  accountExtras,
  userCenter,
];
