import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import apiDocs from './api-docs.js';
import companyApplication from './company-application.js';
import companyInventory from './company-inventory.js';
import disposalOrder from './disposal-order.js';
import disposalQuote from './disposal-quote.js';
import inventoryConfig from './inventory-config.js';
import testingApplication from './testing-application.js';
import websocket from './websocket.js';

export type RouteModule = (app: App, ctx: AppContext) => Promise<void>;

/** Every route module of the reference server that is not (yet) a resource of the contract. */
export const routeModules: RouteModule[] = [
  apiDocs,
  companyApplication,
  companyInventory,
  disposalOrder,
  disposalQuote,
  inventoryConfig,
  testingApplication,
  websocket,
];
