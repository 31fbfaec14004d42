// Compiles the CLI (cli/, the model in src/model, src/shared, templates/) into plain JavaScript in
// cli/dist, so `wastegen` starts without a TypeScript compiler. Run by `npm install` (prepare) and,
// when the sources changed since the last build, by cli/bin.js before it runs anything.
//
// cli/dist/build.json records every source file the bundle was made from (size and mtime), and a
// hash of the output. `isFresh` compares that record with the disk; any difference means rebuild.
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// node:fs is taken as a builtin, not imported: an ES import of it makes Node build the module's ES
// facade, which reads every export and so loads its streams (some 4 ms of every run).
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs');

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'cli/dist');
const STAMP = 'build.json';

/** The record of the last build, or undefined when there is none. */
export function readStamp(dist = DIST) {
  try {
    return JSON.parse(readFileSync(join(dist, STAMP), 'utf8'));
  } catch {
    return undefined;
  }
}

/** A source file's size and mtime as a build stamp records them ('missing' when it is gone). */
export const statKey = (file) => {
  try {
    const st = statSync(join(ROOT, file));
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
};

/** Whether cli/dist was built from the sources as they are now (a few dozen stat calls). */
export function isFresh(dist = DIST) {
  const stamp = readStamp(dist);
  if (stamp?.version !== 1 || !stamp.inputs) return false;
  for (const [file, key] of Object.entries(stamp.inputs)) if (statKey(file) !== key) return false;
  return true;
}

/**
 * Bundles cli/main.ts into `outdir` (ES modules, code splitting so a no-op run loads neither zod nor
 * the compiler; npm packages stay imports). Returns the output files, path → bytes, without writing.
 */
/**
 * Packages bundled into the chunks that use them rather than imported at run time: a generate
 * resolves and loads some hundred module files of zod and handlebars otherwise (about 60 ms of
 * every run that compiles). Their package.json is in the build's record, so an upgrade rebuilds.
 */
const BUNDLED = ['zod', 'handlebars'];

/** Every other package stays an import, resolved from node_modules when the CLI runs. */
const otherPackagesExternal = {
  name: 'other-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return BUNDLED.includes(name) ? undefined : { path: args.path, external: true };
    });
  },
};

export async function compileCli() {
  const { build } = await import('esbuild');
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    plugins: [otherPackagesExternal],
    outdir: DIST,
    entryNames: '[name]',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
    metafile: true,
    write: false,
  };
  const [modules, fast] = await Promise.all([
    build({
      ...common,
      entryPoints: { main: 'cli/main.ts', 'write-worker': 'cli/write-worker.ts', 'compile-worker': 'cli/compile-worker.ts' },
      splitting: true,
      format: 'esm',
      chunkNames: 'chunk-[hash]',
    }),
    // The bin's first try (cli/generate-fast.ts): one CommonJS file, which require() loads at once; and
    // a generate with work to do (cli/generate-main.ts), one CommonJS file loaded with V8's code cache.
    build({
      ...common,
      entryPoints: { 'generate-fast': 'cli/generate-fast.ts', 'generate-main': 'cli/generate-main.ts' },
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      define: { 'import.meta.url': 'importMetaUrl' },
      banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    }),
  ]);
  const files = new Map();
  const inputs = new Set();
  for (const result of [modules, fast]) {
    for (const f of result.outputFiles) files.set(relative(DIST, f.path).split('\\').join('/'), Buffer.from(f.contents));
    for (const f of Object.keys(result.metafile.inputs)) if (!f.startsWith('node_modules/')) inputs.add(f);
  }
  for (const name of BUNDLED) inputs.add(`node_modules/${name}/package.json`);
  return { files, inputs: [...inputs].sort() };
}

/** Hash of the compiled output: what the generate cache keys the generator on. */
export async function outputHash(files) {
  // Loaded here, not at the top: the bin loads this module on every run, and only a build hashes.
  const { createHash } = await import('node:crypto');
  const h = createHash('sha256');
  for (const name of [...files.keys()].sort()) h.update(name).update('\0').update(files.get(name)).update('\0');
  return h.digest('hex');
}

/**
 * Builds and writes cli/dist: chunks first, then the entry, then the stamp, each through a temp
 * file and a rename, so a concurrent run never loads a half-written file. Files the new build does
 * not produce are removed.
 */
export async function buildCli(dist = DIST) {
  const { files, inputs } = await compileCli();
  mkdirSync(dist, { recursive: true });
  const order = [...files.keys()].sort((a, b) => (a === 'main.js') - (b === 'main.js') || (a < b ? -1 : 1));
  for (const name of order) {
    const target = join(dist, name);
    let same = false;
    try {
      same = readFileSync(target).equals(files.get(name));
    } catch {}
    if (same) continue;
    mkdirSync(dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, files.get(name));
    renameSync(tmp, target);
  }
  const hash = await outputHash(files);
  const stamp = { version: 1, hash, inputs: Object.fromEntries(inputs.map((f) => [f, statKey(f)])) };
  const tmp = join(dist, `${STAMP}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(stamp, null, 2)}\n`);
  renameSync(tmp, join(dist, STAMP));
  // A code cache is kept only for this build (its name holds the build's hash).
  const cacheOfThisBuild = `.${hash.slice(0, 16)}.v8-cache`;
  for (const name of readdirSync(dist)) {
    if (name !== STAMP && !files.has(name) && !name.endsWith('.tmp') && !name.endsWith(cacheOfThisBuild))
      rmSync(join(dist, name), { force: true });
  }
  return { files, hash };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t = performance.now();
  const { files } = await buildCli();
  if (!process.argv.includes('--quiet'))
    console.log(`wastegen: compiled the CLI into cli/dist (${files.size} files, ${Math.round(performance.now() - t)} ms)`);
}
