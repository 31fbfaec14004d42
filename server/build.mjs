// Bundles the reference server (server/main.ts and every source it imports) into one ES module,
// server/dist/main.js, so that `npm start` loads one file instead of some 1,800 modules through a
// TypeScript loader: that loading, not the data, was most of the time from start to the first answer.
// npm packages stay imports. server/dist/build.json records the sources the bundle was made from (size
// and mtime); when any differs, the next start bundles again.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_DIST = join(ROOT, 'server/dist');
export const SERVER_ENTRY = join(SERVER_DIST, 'main.js');
const STAMP = join(SERVER_DIST, 'build.json');

/** A source's size and mtime as the stamp records them (the server may not import the CLI's build). */
const statKey = (file) => {
  try {
    const st = statSync(join(ROOT, file));
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
};

/** Whether server/dist was bundled from the sources as they are now. */
export function serverIsFresh() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return false;
  }
  if (stamp?.version !== 1 || !stamp.inputs) return false;
  for (const [file, key] of Object.entries(stamp.inputs)) if (statKey(file) !== key) return false;
  return true;
}

/**
 * Bundles `entry` (a path from the project root) and every source it imports into one ES module at
 * `outfile` (npm packages stay imports), written through a temp file and a rename; resolves to the
 * project sources it was made from.
 */
export async function bundle(entry, outfile) {
  const esbuild = await import('esbuild');
  // esbuild's service process goes once the bundle is made: it is not left beside the server it starts.
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
      metafile: true,
      write: false,
    })
    .finally(() => esbuild.stop());
  mkdirSync(dirname(outfile), { recursive: true });
  for (const f of result.outputFiles) {
    const tmp = `${f.path}.${process.pid}.tmp`;
    writeFileSync(tmp, f.contents);
    renameSync(tmp, f.path);
  }
  return Object.keys(result.metafile.inputs)
    .filter((f) => !f.startsWith('node_modules/'))
    .sort();
}

/** Bundles and writes server/dist (the bundle, then the stamp). */
export async function buildServer() {
  mkdirSync(SERVER_DIST, { recursive: true });
  rmSync(STAMP, { force: true });
  const inputs = await bundle('server/main.ts', SERVER_ENTRY);
  const tmp = `${STAMP}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ version: 1, inputs: Object.fromEntries(inputs.map((f) => [f, statKey(f)])) }, null, 2)}\n`);
  renameSync(tmp, STAMP);
  return inputs.length;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t = performance.now();
  const n = await buildServer();
  console.log(`bundled the server into server/dist/main.js (${n} sources, ${Math.round(performance.now() - t)} ms)`);
}
