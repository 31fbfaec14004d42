import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import apiDocs from './api-docs.js';
import fillingStandIn from './filling-stand-in.js';
import fillingSystem from './filling-system.js';
import logistics from './logistics.js';
import materialsCode from './materials-code.js';
import supervision from './supervision.js';
import websocket from './websocket.js';

export type RouteModule = (app: App, ctx: AppContext) => Promise<void>;

/** Every route module of the reference server that is not (yet) a resource of the contract. */
export const routeModules: RouteModule[] = [apiDocs, fillingStandIn, fillingSystem, logistics, materialsCode, supervision, websocket];
