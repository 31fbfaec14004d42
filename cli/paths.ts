import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The wastegen package's root folder (the one with its package.json), found from this module's
 * location, so the same code works from the TypeScript sources and from the compiled cli/dist.
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'templates'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`wastegen: cannot find the package root above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

export const PACKAGE_ROOT = findRoot();

/** The default templates. */
export const DEFAULT_TEMPLATES_DIR = join(PACKAGE_ROOT, 'templates');

/** The build this process runs, once read. */
let buildHash: { hash: string | undefined } | undefined;

/** The hash of the compiled CLI when running from cli/dist, otherwise undefined (read once per process). */
export function compiledBuildHash(): string | undefined {
  if (!buildHash) {
    buildHash = { hash: undefined };
    if (fileURLToPath(import.meta.url).includes(`${join('cli', 'dist')}`)) {
      try {
        buildHash.hash = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'cli/dist/build.json'), 'utf8')).hash;
      } catch {}
    }
  }
  return buildHash.hash;
}
