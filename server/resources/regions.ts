import { type RegionNode, regions } from '../../src/contract/regions.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { registerResource } from './register.js';

/** Regions: the tree of provinces, cities and districts. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  // The tree only changes with a new seed or migration, so it is built once per process.
  let regionTree: Promise<RegionNode[]> | null = null;
  const buildRegionTree = async (): Promise<RegionNode[]> => {
    const rows = await db.selectFrom('region').select(['code', 'parent_code', 'name']).orderBy('level').orderBy('code').execute();
    const nodes = new Map<string, RegionNode>();
    const roots: RegionNode[] = [];
    for (const r of rows) {
      const node: RegionNode = { value: r.code, label: r.name };
      nodes.set(r.code, node);
      const parent = r.parent_code ? nodes.get(r.parent_code) : undefined;
      if (parent) {
        parent.children ??= [];
        parent.children.push(node);
      } else if (!r.parent_code) roots.push(node);
    }
    return roots;
  };

  registerResource(app, regions, {
    tree: async (_req, reply) => {
      regionTree ??= buildRegionTree().catch((e) => {
        regionTree = null;
        throw e;
      });
      reply.header('cache-control', 'public, max-age=3600');
      return regionTree;
    },
  });
}
