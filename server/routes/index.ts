import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import apiDocs from './api-docs.js';
import websocket from './websocket.js';

export type RouteModule = (app: App, ctx: AppContext) => Promise<void>;

/** Every route module of the reference server that is not (yet) a resource of the contract. */
export const routeModules: RouteModule[] = [apiDocs, websocket];
