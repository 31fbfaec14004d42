import { RESOURCES } from '../../src/contract/index.js';
import type { RouteModule } from '../routes/index.js';

/**
 * The server's resources: for each contract of src/contract, the module of the same name here that
 * implements it. A contract without its module fails the server's start.
 */
export async function loadResourceModules(): Promise<RouteModule[]> {
  return Promise.all(
    RESOURCES.map(async (resource) => {
      // Named with its .ts source, so that the server's bundle (server/build.mjs) takes in every module here.
      const mod = (await import(/* @vite-ignore */ `./${resource.name}.ts`)) as { default?: RouteModule };
      if (typeof mod.default !== 'function') throw new Error(`server/resources/${resource.name}.ts does not implement its contract`);
      return mod.default;
    }),
  );
}
