import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
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
