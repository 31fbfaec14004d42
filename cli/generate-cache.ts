import { mkdirSync, readdirSync, readFileSync, renameSync, type Stats, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { readBoundedFile } from './bounded-read.js';
import { type DefinitionListing, type FileStamp, stampOf, stampTimes } from './definitions-dir.js';
import { isTempName, listFiles, scanGenerated, stageLeftovers, type WrittenOutputs } from './generated-dir.js';
import { compiledBuildHash, DEFAULT_TEMPLATES_DIR, PACKAGE_ROOT } from './paths.js';
import type { Project } from './project.js';

/**
 * Lets a `wastegen generate` with nothing to do finish without compiling: it records, after each
 * generate, a fingerprint of the generator's own sources, the hash of every definition it read and
 * the stat of every file it left in generated/. When all of them still match, generated/ is what a
 * compile would give. Any difference, or no cache, means a full compile. The cache lives in
 * node_modules/.cache/wastegen (never committed), and `--no-cache` ignores it.
 *
 * A definition is not read when its stat (size, mtime, ctime, inode) is the one recorded and that
 * stat had settled when the file was read (see SETTLED_MS): any write, rename over it or utimes
 * since then moves its ctime. Otherwise it is read and its hash compared.
 *
 * In the same way a folder of generated/ is not listed when its stat is the one recorded and had
 * settled: adding, removing or renaming an entry moves a folder's mtime, so its entries are still the
 * recorded ones. Each recorded file is stat'ed on every run all the same.
 *
 * This module must stay light (no zod, no model): it is what a no-op run loads.
 */
interface CacheRecord {
  version: 2;
  generator: string;
  generatedDir: string;
  /** Project-relative definition file → hash of its text, and its stat when that had settled. */
  inputs: Record<string, { hash: string; stamp?: FileStamp }>;
  outputs: Record<string, FileStamp>;
  /** Folder of generated/ ('' for itself) → its stat, for those whose stat had settled. */
  folders?: Record<string, FileStamp>;
}

/**
 * A stat is trusted only for a file whose ctime and mtime were this much older than the moment it
 * was looked at. A file changed again within the file system's timestamp resolution (up to 2 s on
 * some) could keep its ctime; such a recent file is hashed on every run until it is old enough.
 */
export const SETTLED_MS = 3000;

const settled = (stamp: FileStamp, at: number) => {
  const { mtimeMs, ctimeMs } = stampTimes(stamp);
  return ctimeMs < at - SETTLED_MS && mtimeMs < at - SETTLED_MS;
};

/**
 * A folder of generated/ is trusted sooner where the file system keeps times finer than a second (its
 * change time, which only the kernel sets, has a fraction of a second: such clocks tick every few
 * milliseconds at most), so that a run just after a generate can already trust the folders that generate
 * wrote; elsewhere after SETTLED_MS.
 */
export const FINE_SETTLED_MS = 100;

const folderSettled = (stamp: FileStamp, at: number) => {
  const { mtimeMs, ctimeMs } = stampTimes(stamp);
  const wait = ctimeMs % 1000 !== 0 ? FINE_SETTLED_MS : SETTLED_MS;
  return ctimeMs < at - wait && mtimeMs < at - wait;
};

/** node:crypto, loaded only when something must be hashed: a no-op run whose stats all match hashes nothing. */
let cryptoModule: typeof import('node:crypto') | undefined;
const crypto = (): typeof import('node:crypto') => {
  // Kept once loaded: a require function made for each of a compile's 2,000 hashes costs more than the hashes.
  cryptoModule ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return cryptoModule;
};
/** The content hash the cache records of a definition's bytes (for a text: of its UTF-8 bytes). */
export const sha = (text: string | Buffer) => crypto().createHash('sha256').update(text).digest('hex');

const GENERATOR_DIRS = ['cli', 'src/model', 'src/shared', 'templates'].map((d) => join(PACKAGE_ROOT, d));

/**
 * What the generator is, so that a changed emitter or template invalidates the cache: when running
 * compiled, the compiled CLI's build hash and the templates' texts themselves (a few kilobytes:
 * comparing them costs less than loading a hash function); when running from TypeScript (tests),
 * a hash of every source file.
 */
function generatorFingerprint(project: Pick<Project, 'templatesDir'>): string {
  const parts: (string | Buffer)[] = [];
  if (project.templatesDir) parts.push('templatesDir\0', project.templatesDir, '\0', ...templateTexts(project.templatesDir));
  const build = compiledBuildHash();
  if (build) return [...parts, 'build\0', build, '\0', ...templateTexts(DEFAULT_TEMPLATES_DIR)].join('');
  const h = crypto().createHash('sha256');
  for (const part of parts) h.update(part);
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

/** Each `.hbs` file of dir as `name\0text\0`, by name. */
function templateTexts(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return ['(missing)\0'];
  }
  return names.filter((n) => n.endsWith('.hbs')).map((name) => `${name}\0${readFileSync(join(dir, name), 'utf8')}\0`);
}

/** FNV-1a of a text, 32 bits, in hex: names the cache file of a generated/ folder (the record holds the folder itself). */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function cacheFile(project: Project): string {
  return join(project.root, 'node_modules/.cache/wastegen', `generate-${shortHash(project.generatedDir)}.json`);
}

export interface InputText {
  file: string;
  text: string;
  /** sha() of the text as it was compiled, when its reader kept it (then the text is not read again). */
  hash?: string | undefined;
}

/** The files generate owns in generated/ (what compareWithDisk considers). */
const listOutputs = (dir: string): string[] => listFiles(dir);

function readRecord(project: Project): CacheRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(cacheFile(project), 'utf8'));
    return record?.version === 2 && record.generatedDir === project.generatedDir ? record : undefined;
  } catch {
    return undefined;
  }
}

function writeRecord(project: Project, record: CacheRecord): void {
  try {
    const file = cacheFile(project);
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(record));
    renameSync(tmp, file);
  } catch {
    // A read-only node_modules only costs the next run a compile.
  }
}

/** Whether generated/ is known to be what compiling the listed definitions gives. */
export function isUpToDate(project: Project, listing: DefinitionListing): boolean {
  const record = readRecord(project);
  if (!record) return false;
  if (listing.files.length !== Object.keys(record.inputs).length) return false;
  // Definitions whose stat is now trusted, after their text was read and found unchanged.
  let settledSince = false;
  for (const f of listing.files) {
    const want = record.inputs[f.file];
    if (!want) return false;
    if (want.stamp === f.stamp) continue;
    let bytes: Buffer;
    try {
      // Bounded, and never from a FIFO: a file refused here is reported by the compile that follows.
      bytes = readBoundedFile(f.abs);
    } catch {
      return false;
    }
    if (sha(bytes) !== want.hash) return false;
    if (settled(f.stamp, listing.at)) {
      want.stamp = f.stamp;
      settledSince = true;
    }
  }
  // Only a full generate removes what an interrupted one left beside generated/.
  if (stageLeftovers(project.generatedDir).length) return false;
  record.folders ??= {};
  const outputs = sameOutputs(project.generatedDir, record.outputs, record.folders, listing.at);
  if (!outputs) return false;
  if (record.generator !== generatorFingerprint(project)) return false;
  if (settledSince || outputs.settledSince) writeRecord(project, record);
  return true;
}

/** A recorded folder's entries: its files and its folders, by name. */
interface Folder {
  files: string[];
  folders: Set<string>;
  /** Whether it holds a temp file of an interrupted write (never recorded: generate removes them). */
  leftover?: boolean;
}

/** The folders of a set of relative file paths ('' the top one), each with its entries. */
function foldersOf(files: Iterable<string>): Map<string, Folder> {
  const tree = new Map<string, Folder>([['', { files: [], folders: new Set() }]]);
  const folder = (rel: string): Folder => {
    let f = tree.get(rel);
    if (!f) {
      f = { files: [], folders: new Set() };
      tree.set(rel, f);
      const cut = rel.lastIndexOf('/');
      folder(cut < 0 ? '' : rel.slice(0, cut)).folders.add(cut < 0 ? rel : rel.slice(cut + 1));
    }
    return f;
  };
  for (const rel of files) {
    const cut = rel.lastIndexOf('/');
    folder(cut < 0 ? '' : rel.slice(0, cut)).files.push(cut < 0 ? rel : rel.slice(cut + 1));
  }
  return tree;
}

/** The names in a folder as scanGenerated sees them (dot files and dot-folders left out, temp files noted). */
function listed(abs: string): Folder {
  const out: Folder = { files: [], folders: new Set() };
  for (const e of readdirSync(abs, { withFileTypes: true })) {
    if (isTempName(e.name)) out.leftover = true;
    else if (e.name.startsWith('.')) continue;
    else if (e.isDirectory()) out.folders.add(e.name);
    else out.files.push(e.name);
  }
  return out;
}

/** Whether a folder holds a file of generated/ or a leftover of an interrupted write, at any depth. */
const holdsAnything = (abs: string) => {
  const found = scanGenerated(abs);
  return found.files.length + found.leftovers.length > 0;
};

/**
 * Whether generated/ holds exactly the recorded files with their recorded stats. A folder whose stat
 * is in `folders` is not listed; one that is listed and has settled is put there (`settledSince`).
 * A folder with no file in it (nor under it) is not an output, as listFiles has it.
 */
function sameOutputs(dir: string, outputs: Record<string, FileStamp>, folders: Record<string, FileStamp>, at: number) {
  const tree = foldersOf(Object.keys(outputs));
  let settledSince = false;
  const same = (rel: string, want: Folder): boolean => {
    // Names read from the folders: joined without path.join's normalising, which would be paid per file.
    const abs = rel ? `${dir}${sep}${rel}` : dir;
    let stamp: FileStamp;
    try {
      stamp = stampOf(statSync(abs));
    } catch {
      // No generated/ at all is as good as an empty one.
      return !rel && !Object.keys(outputs).length;
    }
    if (folders[rel] !== stamp) {
      let found: Folder;
      try {
        found = listed(abs);
      } catch {
        return false;
      }
      // What an interrupted write left is removed by a full generate.
      if (found.leftover) return false;
      // The recorded files and folders, and besides them only folders that hold no file (no outputs).
      const files = new Set(found.files);
      if (files.size !== want.files.length || !want.files.every((n) => files.has(n))) return false;
      if ([...want.folders].some((n) => !found.folders.has(n))) return false;
      const extra = [...found.folders].filter((n) => !want.folders.has(n));
      if (extra.some((n) => holdsAnything(join(abs, n)))) return false;
      // Only a folder that holds exactly the recorded entries is trusted from now on.
      if (!extra.length && folderSettled(stamp, at)) {
        folders[rel] = stamp;
        settledSince = true;
      }
    }
    for (const name of want.files) {
      const file = rel ? `${rel}/${name}` : name;
      let st: Stats;
      try {
        st = statSync(`${dir}${sep}${file}`);
      } catch {
        return false;
      }
      if (outputs[file] !== stampOf(st)) return false;
    }
    for (const name of want.folders) {
      const sub = rel ? `${rel}/${name}` : name;
      if (!same(sub, tree.get(sub) as Folder)) return false;
    }
    return true;
  };
  return same('', tree.get('') as Folder) ? { settledSince } : undefined;
}

/**
 * Records the state a successful generate left behind: `sources` are the texts read from `listing`;
 * `written`, what the writer knows of generated/ after its commit (else generated/ is listed and
 * every file stat'ed here). Failure to write the cache is not an error.
 */
export function recordGenerate(
  project: Project,
  listing: DefinitionListing,
  sources: readonly InputText[],
  written?: WrittenOutputs,
): void {
  try {
    const hashes = Object.fromEntries(sources.map((s) => [s.file, s.hash ?? sha(s.text)]));
    const inputs: CacheRecord['inputs'] = {};
    for (const f of listing.files) {
      const hash = hashes[f.file];
      if (hash === undefined) return;
      inputs[f.file] = settled(f.stamp, listing.at) ? { hash, stamp: f.stamp } : { hash };
    }
    const outputs: CacheRecord['outputs'] =
      written?.stamps ??
      Object.fromEntries(listOutputs(project.generatedDir).map((rel) => [rel, stampOf(statSync(join(project.generatedDir, rel)))]));
    const folders: Record<string, FileStamp> = {};
    // Folders made during this run are younger than the listing, so none of them has settled.
    if (!written?.created)
      for (const rel of foldersOf(Object.keys(outputs)).keys()) {
        let stamp: FileStamp;
        try {
          stamp = stampOf(statSync(rel ? join(project.generatedDir, rel) : project.generatedDir));
        } catch {
          continue;
        }
        if (folderSettled(stamp, listing.at)) folders[rel] = stamp;
      }
    writeRecord(project, {
      version: 2,
      generator: generatorFingerprint(project),
      generatedDir: project.generatedDir,
      inputs,
      outputs,
      folders,
    });
  } catch {
    // A generated/ changing under us only costs the next run a compile.
  }
}
