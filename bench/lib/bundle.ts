import { basename, join } from 'node:path';
import { bundle } from '../../server/build.mjs';

/**
 * Bundles a bench's server process (its entry and every source it imports; npm packages stay imports)
 * into bench/dist/NAME.js and returns its path: the server under measure runs as `npm start` runs it, one
 * bundled module, not some 1,800 sources through a TypeScript loader, whose hooks thread and source maps
 * alone hold about 100 MB more resident memory and add their own work.
 */
export async function bundled(entry: string): Promise<string> {
  const outfile = join(import.meta.dirname, '../dist', basename(entry).replace(/\.ts$/, '.js'));
  await bundle(entry, outfile);
  return outfile;
}
