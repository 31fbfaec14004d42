import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const OUT = join(ROOT, 'bench/dist');

/**
 * Bundles a bench's server process (its entry and every source it imports; npm packages stay imports)
 * into bench/dist/NAME.js and returns its path: the server under measure runs as `npm start` runs it, one
 * bundled module, not some 1,800 sources through a TypeScript loader, whose hooks thread and source maps
 * alone hold about 100 MB more resident memory and add their own work.
 */
export async function bundled(entry: string): Promise<string> {
  const esbuild = await import('esbuild');
  const outfile = join(OUT, basename(entry).replace(/\.ts$/, '.js'));
  const result = await esbuild
    .build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      outfile,
      charset: 'utf8',
      legalComments: 'none',
      logLevel: 'silent',
      write: false,
    })
    .finally(() => esbuild.stop());
  mkdirSync(OUT, { recursive: true });
  for (const f of result.outputFiles) {
    const tmp = `${f.path}.${process.pid}.tmp`;
    writeFileSync(tmp, f.contents);
    renameSync(tmp, f.path);
  }
  return outfile;
}
