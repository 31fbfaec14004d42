import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { type FileStamp, stampOf } from './definitions-dir.js';

/**
 * The generated/ folder: what is there, how it differs from what compile() produced, and writing
 * only what changed (each file through a temp file and a rename, so no reader ever sees half a file).
 */

/** Temp files and stage folders of a write in progress (or of an interrupted one) start with this. */
const TEMP_PREFIX = '.wastegen-tmp-';
const tempName = () => `${TEMP_PREFIX}${process.pid}-${Math.random().toString(36).slice(2)}`;
/** Whether a name is a temp file or stage folder of a write. */
export const isTempName = (name: string) => name.startsWith(TEMP_PREFIX);

/** Every file under dir, relative with forward slashes, sorted. Temp files of an interrupted run are ignored. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(abs, e.name), r);
      else if (!e.name.startsWith(TEMP_PREFIX)) out.push(r);
    }
  };
  walk(dir, '');
  return out.sort();
}

/** A file's text, or its UTF-8 bytes (as they come from another thread). */
export type FileText = string | Uint8Array;

/** Whether a file's bytes on disk are those of `text`. */
function sameText(disk: Buffer, text: FileText): boolean {
  return typeof text === 'string' ? disk.toString('utf8') === text : disk.equals(text);
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
  const tmp = join(dirname(file), tempName());
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Writes a new file and answers its stat, taken through the open descriptor. */
function writeAndStamp(file: string, text: FileText): FileStamp {
  const fd = openSync(file, 'wx');
  try {
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done);
    return stampOf(fstatSync(fd));
  } finally {
    closeSync(fd);
  }
}

function removeEmptyDirs(dir: string, root: string): void {
  let d = dir;
  while (d.startsWith(root) && d !== root && existsSync(d) && readdirSync(d).length === 0) {
    rmdirSync(d);
    d = dirname(d);
  }
}

/** Whether a process with this id is running (a stage folder of a dead one can go). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What generated/ holds after a commit, as the writer knows it without looking again: the stat of
 * every file generate owns there (every one it was given), and whether the folder was created by
 * this commit (then none of its folders is older than the run).
 */
export interface WrittenOutputs {
  stamps: Record<string, FileStamp>;
  created: boolean;
}

export interface Committed extends Staleness {
  /** Undefined when a stat could not be taken. */
  outputs: WrittenOutputs | undefined;
}

/** A write to generated/ that failed; `changed` says whether generated/ had already been changed. */
export class WriteFailure extends Error {
  constructor(
    message: string,
    readonly changed: boolean,
  ) {
    super(message);
    this.name = 'WriteFailure';
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Writes a compile's files one by one as they are emitted, with nothing visible in `dir` before
 * commit(), so an emit that fails part-way leaves generated/ as it was:
 * - when `dir` does not exist yet, into a stage folder beside it, renamed to `dir` at commit (one
 *   rename instead of one per file);
 * - otherwise into a temp file beside each file whose bytes change, renamed over it at commit; files
 *   with the same bytes are left alone, and files no definition produced are removed at commit.
 * abort() removes what was staged.
 */
export class StagedWrites {
  private readonly stage: string | undefined;
  private readonly present: ReadonlySet<string>;
  private readonly added = new Set<string>();
  private readonly temps: [temp: string, target: string, path: string][] = [];
  private readonly madeDirs = new Set<string>();
  private readonly result: Staleness = { stale: [], missing: [], orphaned: [], unchanged: [] };
  /** The stat of every file written or found unchanged, as it will be after commit. */
  private readonly stamps = new Map<string, FileStamp>();
  /** False once a stat could not be taken: the cache then looks at generated/ itself. */
  private stampsKnown = true;

  constructor(private readonly dir: string) {
    if (existsSync(dir)) {
      this.present = new Set(listFiles(dir));
      return;
    }
    this.present = new Set();
    const parent = dirname(dir);
    mkdirSync(parent, { recursive: true });
    for (const name of readdirSync(parent)) {
      const pid = Number(name.startsWith(TEMP_PREFIX) ? name.slice(TEMP_PREFIX.length).split('-')[0] : Number.NaN);
      if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
    }
    this.stage = join(parent, tempName());
    mkdirSync(this.stage);
  }

  private ensureDir(d: string): void {
    if (this.madeDirs.has(d)) return;
    // Under a stage folder this write made, nothing exists that it did not make itself.
    if (d === this.stage) {
      this.madeDirs.add(d);
      return;
    }
    if (this.stage !== undefined || !existsSync(d)) {
      this.ensureDir(dirname(d));
      mkdirSync(d);
    }
    this.madeDirs.add(d);
  }

  /** Records a file's stat for the cache; one that cannot be taken only costs the cache its shortcut. */
  private stampOf(path: string, file: string): void {
    try {
      this.stamps.set(path, stampOf(statSync(file)));
    } catch {
      this.stampsKnown = false;
    }
  }

  /** Stages one file; a failure here has changed nothing in `dir`. */
  add(path: string, text: FileText): void {
    if (this.added.has(path)) throw new WriteFailure(`${path} was emitted twice`, false);
    this.added.add(path);
    try {
      this.stageFile(path, text);
    } catch (e) {
      throw new WriteFailure(messageOf(e), false);
    }
  }

  private stageFile(path: string, text: FileText): void {
    if (this.stage) {
      const file = join(this.stage, path);
      this.ensureDir(dirname(file));
      // Renaming the stage folder changes none of its files' stats.
      this.stamps.set(path, writeAndStamp(file, text));
      this.result.missing.push(path);
      return;
    }
    const target = join(this.dir, path);
    if (this.present.has(path)) {
      if (sameText(readFileSync(target), text)) {
        this.result.unchanged.push(path);
        this.stampOf(path, target);
        return;
      }
      this.result.stale.push(path);
    } else this.result.missing.push(path);
    this.ensureDir(dirname(target));
    const temp = join(dirname(target), tempName());
    this.temps.push([temp, target, path]);
    writeFileSync(temp, text);
  }

  /** Makes every staged file visible, removes the orphans, and says what changed. */
  commit(): Committed {
    let changed = false;
    try {
      if (this.stage) {
        renameSync(this.stage, this.dir);
        changed = true;
      } else {
        for (const [temp, target] of this.temps) {
          renameSync(temp, target);
          changed = true;
        }
      }
      // A rename moves the renamed file's change time.
      for (const [, target, path] of this.temps) this.stampOf(path, target);
      for (const path of this.present) {
        if (this.added.has(path) || path === '.gitkeep') continue;
        this.result.orphaned.push(path);
        rmSync(join(this.dir, path), { force: true });
        changed = true;
        removeEmptyDirs(dirname(join(this.dir, path)), this.dir);
      }
    } catch (e) {
      throw new WriteFailure(messageOf(e), changed);
    }
    for (const list of Object.values(this.result)) list.sort();
    const outputs = this.stampsKnown ? { stamps: Object.fromEntries(this.stamps), created: this.stage !== undefined } : undefined;
    return { ...this.result, outputs };
  }

  /** Removes everything staged; `dir` is as it was before. */
  abort(): void {
    if (this.stage) {
      rmSync(this.stage, { recursive: true, force: true });
      return;
    }
    for (const [temp] of this.temps) rmSync(temp, { force: true });
    for (const d of [...this.madeDirs].sort((a, b) => b.length - a.length)) {
      if (d.startsWith(this.dir) && d !== this.dir && existsSync(d) && readdirSync(d).length === 0) rmdirSync(d);
    }
  }
}

/**
 * StagedWrites for a compile that goes on while its files are written: add() never throws, and the
 * first failure (opening the folder included) is thrown by commit(), once everything staged is removed.
 */
export class DeferredWrites {
  #writes: StagedWrites | undefined;
  #failure: WriteFailure | undefined;

  constructor(dir: string) {
    try {
      this.#writes = new StagedWrites(dir);
    } catch (e) {
      this.#fail(e);
    }
  }

  #fail(e: unknown): void {
    this.#failure ??= e instanceof WriteFailure ? e : new WriteFailure(messageOf(e), false);
  }

  add(path: string, text: FileText): void {
    if (this.#failure || !this.#writes) return;
    try {
      this.#writes.add(path, text);
    } catch (e) {
      this.#fail(e);
    }
  }

  commit(): Committed {
    if (!this.#failure && this.#writes) {
      try {
        return this.#writes.commit();
      } catch (e) {
        this.#fail(e);
      }
    }
    this.abort();
    throw this.#failure;
  }

  abort(): void {
    this.#writes?.abort();
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
