import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listFiles } from './generated-dir.js';
import { compiledBuildHash, DEFAULT_TEMPLATES_DIR, PACKAGE_ROOT } from './paths.js';
import type { Project } from './project.js';

/**
 * Lets a `wastegen generate` with nothing to do finish without compiling: it records, after each
 * generate, a fingerprint of the generator's own sources, the hash of every definition it read and
 * the size and mtime of every file it left in generated/. When all of them still match, generated/
 * is what a compile would give. Any difference, or no cache, means a full compile. The cache lives
 * in node_modules/.cache/wastegen (never committed), and `--no-cache` ignores it.
 *
 * This module must stay light (no zod, no model): it is what a no-op run loads.
 */
interface CacheRecord {
  version: 1;
  generator: string;
  generatedDir: string;
  inputs: Record<string, string>;
  outputs: Record<string, { size: number; mtimeMs: number }>;
}

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

const GENERATOR_DIRS = ['cli', 'src/model', 'src/shared', 'templates'].map((d) => join(PACKAGE_ROOT, d));

/**
 * Hash of the generator, so that a changed emitter or template invalidates the cache: the compiled
 * CLI's build hash and the templates when running compiled, every source file when running from
 * TypeScript (tests).
 */
function generatorFingerprint(project: Pick<Project, 'templatesDir'>): string {
  const h = createHash('sha256');
  if (project.templatesDir) {
    h.update('templatesDir\0').update(project.templatesDir);
    walkTemplates(project.templatesDir, h);
  }
  const build = compiledBuildHash();
  if (build) {
    h.update(build);
    walkTemplates(DEFAULT_TEMPLATES_DIR, h);
    return h.digest('hex');
  }
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'dist') walk(p);
      } else if (/\.(ts|tsx|js|mjs|hbs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) h.update(p).update(readFileSync(p));
    }
  };
  for (const dir of GENERATOR_DIRS) walk(dir);
  return h.digest('hex');
}

function walkTemplates(dir: string, h: ReturnType<typeof createHash>): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir).sort();
  } catch {
    h.update('(missing)');
  }
  for (const name of names) if (name.endsWith('.hbs')) h.update(name).update(readFileSync(join(dir, name)));
}

function cacheFile(project: Project): string {
  return join(project.root, 'node_modules/.cache/wastegen', `generate-${sha(project.generatedDir).slice(0, 12)}.json`);
}

export interface InputText {
  file: string;
  text: string;
}

/** Hashes of the definitions read, by file; kept per list, since a generate checks and then records the same one. */
const hashed = new WeakMap<readonly InputText[], Record<string, string>>();
function inputsOf(sources: readonly InputText[]): Record<string, string> {
  let inputs = hashed.get(sources);
  if (!inputs) {
    inputs = Object.fromEntries(sources.map((s) => [s.file, sha(s.text)]));
    hashed.set(sources, inputs);
  }
  return inputs;
}

function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => k in b);
}

/** The files generate owns in generated/ (what compareWithDisk considers). */
const listOutputs = (dir: string): string[] => listFiles(dir).filter((f) => f !== '.gitkeep');

/** Whether generated/ is known to be what compiling these sources gives. */
export function isUpToDate(project: Project, sources: readonly InputText[]): boolean {
  let record: CacheRecord;
  try {
    record = JSON.parse(readFileSync(cacheFile(project), 'utf8'));
  } catch {
    return false;
  }
  if (record.version !== 1 || record.generatedDir !== project.generatedDir) return false;
  const inputs = inputsOf(sources);
  if (!sameKeys(inputs, record.inputs) || Object.entries(inputs).some(([k, v]) => record.inputs[k] !== v)) return false;
  const present = listOutputs(project.generatedDir);
  if (present.length !== Object.keys(record.outputs).length) return false;
  for (const rel of present) {
    const want = record.outputs[rel];
    if (!want) return false;
    const st = statSync(join(project.generatedDir, rel));
    if (st.size !== want.size || st.mtimeMs !== want.mtimeMs) return false;
  }
  return record.generator === generatorFingerprint(project);
}

/** Records the state a successful generate left behind. Failure to write the cache is not an error. */
export function recordGenerate(project: Project, sources: readonly InputText[]): void {
  try {
    const outputs: CacheRecord['outputs'] = {};
    for (const rel of listOutputs(project.generatedDir)) {
      const st = statSync(join(project.generatedDir, rel));
      outputs[rel] = { size: st.size, mtimeMs: st.mtimeMs };
    }
    const record: CacheRecord = {
      version: 1,
      generator: generatorFingerprint(project),
      generatedDir: project.generatedDir,
      inputs: inputsOf(sources),
      outputs,
    };
    const file = cacheFile(project);
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(record));
    renameSync(tmp, file);
  } catch {
    // A read-only node_modules only costs the next run a compile.
  }
}
