import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * The generated/ folder: what is there, how it differs from what compile() produced, and writing
 * only what changed (each file through a temp file and a rename, so no reader ever sees half a file).
 */

/** Every file under dir, relative with forward slashes, sorted. Temp files of an interrupted run are ignored. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(abs, e.name), r);
      else if (!e.name.startsWith('.wastegen-tmp-')) out.push(r);
    }
  };
  walk(dir, '');
  return out.sort();
}

export interface Staleness {
  /** In generated/ with other bytes than the definitions give. */
  stale: string[];
  /** Not in generated/ yet. */
  missing: string[];
  /** In generated/ but produced by no definition. */
  orphaned: string[];
  unchanged: string[];
}

export function compareWithDisk(dir: string, files: ReadonlyMap<string, string>): Staleness {
  const present = new Set(listFiles(dir));
  const result: Staleness = { stale: [], missing: [], orphaned: [], unchanged: [] };
  for (const [path, text] of files) {
    if (!present.has(path)) result.missing.push(path);
    else if (readFileSync(join(dir, path), 'utf8') !== text) result.stale.push(path);
    else result.unchanged.push(path);
  }
  for (const path of present) if (!files.has(path) && path !== '.gitkeep') result.orphaned.push(path);
  for (const list of Object.values(result)) list.sort();
  return result;
}

function writeAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.wastegen-tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

function removeEmptyDirs(dir: string, root: string): void {
  let d = dir;
  while (d.startsWith(root) && d !== root && existsSync(d) && readdirSync(d).length === 0) {
    rmdirSync(d);
    d = dirname(d);
  }
}

const WRITES_IN_FLIGHT = 16;

async function writeAtomicAsync(file: string, text: string, dirs: Map<string, Promise<unknown>>): Promise<void> {
  const dir = dirname(file);
  let made = dirs.get(dir);
  if (!made) {
    made = mkdir(dir, { recursive: true });
    dirs.set(dir, made);
  }
  await made;
  const tmp = join(dir, `.wastegen-tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * As applyToDisk, with the writes overlapped (a few in flight at once), which is what a cold
 * generate of many pages spends most of its file-system time on. Each file still goes through a
 * temp file and a rename; the first failure is thrown once the writes in flight have settled.
 */
export async function applyToDiskAsync(dir: string, files: ReadonlyMap<string, string>): Promise<Staleness> {
  const diff = compareWithDisk(dir, files);
  const queue = [...diff.missing, ...diff.stale];
  const dirs = new Map<string, Promise<unknown>>();
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < queue.length) {
      const path = queue[next++] as string;
      try {
        await writeAtomicAsync(join(dir, path), files.get(path) as string, dirs);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITES_IN_FLIGHT, queue.length) }, worker));
  if (failure !== undefined) throw failure;
  for (const path of diff.orphaned) {
    rmSync(join(dir, path), { force: true });
    removeEmptyDirs(dirname(join(dir, path)), dir);
  }
  return diff;
}

/** Brings dir in line with files: writes stale and missing files, removes orphans. */
export function applyToDisk(dir: string, files: ReadonlyMap<string, string>): Staleness {
  const diff = compareWithDisk(dir, files);
  for (const path of [...diff.missing, ...diff.stale]) writeAtomic(join(dir, path), files.get(path) as string);
  for (const path of diff.orphaned) {
    rmSync(join(dir, path), { force: true });
    removeEmptyDirs(dirname(join(dir, path)), dir);
  }
  return diff;
}
