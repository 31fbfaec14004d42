import type { App } from '../app.js';
import type { AppContext } from '../context.js';

export default async function routes(_app: App, _ctx: AppContext): Promise<void> {}
