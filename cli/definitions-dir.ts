import {
  type Dirent,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { compareText, type Problem } from '../src/model/problems.js';
import { DEFINITION_MAX_BYTES, notRegular, notRegularFile, readBoundedFile, tooLarge, UnreadableFile } from './bounded-read.js';
import { CliError, EXIT } from './errors.js';
import type { ReadAheadTaker } from './prefetch.js';
import { inScope, type Project } from './project.js';

/**
 * The definitions/ folder: `views/{id}-{slug}.json` and `screens/{id}-{slug}.json`. Read by
 * generate, check and diff; written only by pull, through temp files and renames.
 */

export type DefinitionKind = 'view' | 'screen';

export interface DefinitionFile {
  /** Relative to definitionsDir, e.g. views/12-stock-in.json */
  rel: string;
  /** Relative to the project root, e.g. definitions/views/12-stock-in.json */
  file: string;
  kind: DefinitionKind;
  text: string;
  /** The content hash of `text` (sourceHashOf its JSON), when its reader has it; read after `text`. */
  sourceHash?: string | undefined;
}

export const KIND_DIRS: Record<DefinitionKind, string> = { view: 'views', screen: 'screens' };

type DirProject = Pick<Project, 'definitionsDir' | 'definitionsDirSetting' | 'include' | 'exclude' | 'rel'> &
  Partial<Pick<Project, 'root'>>;

/** The project-relative path of a file under definitionsDir. */
export const definitionFilePath = (project: Pick<Project, 'definitionsDir' | 'rel'>, rel: string) =>
  project.rel(join(project.definitionsDir, ...rel.split('/')));

/**
 * What a stat says of a file, as one text (`size:mtimeMs:ctimeMs:ino`): enough to tell, without
 * reading it, that the file was not rewritten.
 */
export type FileStamp = string;

export const stampOf = (st: { size: number; mtimeMs: number; ctimeMs: number; ino: number }): FileStamp =>
  `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;

/** The ctime and mtime of a stamp. */
export const stampTimes = (stamp: FileStamp): { mtimeMs: number; ctimeMs: number } => {
  const [, mtimeMs, ctimeMs] = stamp.split(':').map(Number);
  return { mtimeMs: mtimeMs as number, ctimeMs: ctimeMs as number };
};

/** An in-scope definition file found on disk, not read yet. */
export interface ListedDefinition extends Omit<DefinitionFile, 'text'> {
  /** Where its bytes are: the file itself, or the file a symbolic link of the folder names. */
  abs: string;
  stamp: FileStamp;
}

/** The definition files in scope and when they were looked at (Date.now(), taken before the first stat). */
export interface DefinitionListing {
  files: ListedDefinition[];
  at: number;
}

/** The problem of a file that is not read, at the whole file. */
export const refusal = (file: string, e: UnreadableFile): Problem => ({
  code: e.code,
  file,
  pointer: '',
  message: e.message,
  hint: e.hint,
});

/** Files that are not read, as one failure listing each as `file#: message`. */
const refusedFiles = (problems: Problem[]) =>
  new CliError(
    `${problems.length} definition file${problems.length === 1 ? '' : 's'} cannot be read; nothing was written`,
    EXIT.invalid,
    undefined,
    problems,
  );

/**
 * A listed file's text, read as a regular file of bounded size (readBoundedFile); one that cannot be
 * read any more (removed since it was listed, say) or is refused now (replaced by a FIFO, grown past
 * the bound) is a clear error.
 */
function readDefinitionText(listed: Pick<ListedDefinition, 'abs' | 'file'>): string;
function readDefinitionText(listed: Pick<ListedDefinition, 'abs' | 'file'>, bytes: true): Buffer;
function readDefinitionText(listed: Pick<ListedDefinition, 'abs' | 'file'>, bytes?: true): string | Buffer {
  try {
    const read = readBoundedFile(listed.abs);
    return bytes ? read : read.toString('utf8');
  } catch (e) {
    if (e instanceof UnreadableFile) throw refusedFiles([refusal(listed.file, e)]);
    throw new CliError(
      `cannot read ${listed.file}: ${(e as Error).message}`,
      EXIT.invalid,
      'run the command again once the file is in place',
    );
  }
}

/**
 * A listed definition whose text is read from disk each time it is asked for, and not held: a
 * compile asks once, so the texts of a whole project (22 MB at 1,000 views) are never held together.
 * The hash of the text last read is kept, for the generate cache to record what was compiled.
 */
export class DefinitionOnDisk implements DefinitionFile {
  readonly rel: string;
  readonly file: string;
  readonly kind: DefinitionKind;
  /** `hashOf` of the bytes last read; undefined until the text is read. */
  hash: string | undefined;
  /** The content hash of the text last read, when it was read ahead (and is JSON). */
  sourceHash: string | undefined;

  /** `ahead`: where this definition may have been read ahead of the compile, as definition `index`. */
  constructor(
    private readonly listed: ListedDefinition,
    private readonly hashOf: (bytes: Buffer) => string,
    private readonly ahead?: Pick<ReadAheadTaker, 'take'>,
    private readonly index = 0,
  ) {
    ({ rel: this.rel, file: this.file, kind: this.kind } = listed);
  }

  get text(): string {
    const read = this.ahead?.take(this.index);
    if (read) {
      this.hash = read.sha;
      this.sourceHash = read.hash;
      return read.text;
    }
    // Hashed as read: the bytes, not the text encoded again.
    const bytes = readDefinitionText(this.listed, true);
    this.hash = this.hashOf(bytes);
    this.sourceHash = undefined;
    return bytes.toString('utf8');
  }
}

/**
 * A definitions folder that is not there is an error, not an empty project: a mistyped definitionsDir
 * must not make generate remove every page. An existing folder without views/ or screens/ has no
 * definitions.
 */
function requireDefinitionsDir(project: DirProject): void {
  let isFolder: boolean;
  try {
    isFolder = statSync(project.definitionsDir).isDirectory();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && (e as NodeJS.ErrnoException).code !== 'ENOTDIR')
      throw new CliError(`cannot read ${project.rel(project.definitionsDir) || '.'}/: ${(e as Error).message}`, EXIT.invalid);
    isFolder = false;
  }
  if (isFolder) return;
  const shown = `${project.rel(project.definitionsDir) || '.'}/`;
  const what = existsSync(project.definitionsDir) ? 'is not a folder' : 'does not exist';
  const setting = project.definitionsDirSetting;
  const hint = setting
    ? `correct definitionsDir in ${setting.split('#')[0]}, or run \`wastegen pull\` to fetch the definitions into it`
    : 'run `wastegen pull` to fetch the definitions, or set definitionsDir in wastegen.config.json';
  if (!setting)
    throw new CliError(`the definitions folder ${shown} ${what} (the default definitionsDir); nothing was written`, EXIT.invalid, hint);
  const [file = '', pointer = ''] = setting.split('#');
  throw new CliError(
    `the definitions folder ${shown}, set as definitionsDir in ${file}, ${what}; nothing was written`,
    EXIT.invalid,
    hint,
    [{ code: 'E_CONFIG', file, pointer, message: `the definitions folder ${shown} ${what}` }],
  );
}

export interface ListOptions {
  /** A definitions folder that is not there lists nothing (pull, which creates it). */
  missingOk?: boolean;
}

/** A path with its symbolic links resolved, or undefined when it leads nowhere. */
function realPathOf(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/**
 * Where a symbolic link of the definitions folder leads, when it may be read: to a file inside the
 * project (its root, or the definitions folder wherever that is). Else why not.
 */
function linkTarget(project: DirProject, abs: string): { target: string } | { refused: UnreadableFile } {
  const target = realPathOf(abs);
  if (!target) return { refused: notRegularFile('a symbolic link to nothing') };
  const inside = [project.root, project.definitionsDir].some((folder) => {
    const real = folder && realPathOf(folder);
    return real && target.startsWith(real.endsWith(sep) ? real : `${real}${sep}`);
  });
  if (!inside) return { refused: notRegularFile('a symbolic link to a file outside the project') };
  return { target };
}

/**
 * Every in-scope definition file (`*.json` directly under views/ and screens/), sorted by path, with
 * its stat. Files that would not be read (anything but a regular file, a symbolic link leading out of
 * the project, a size no definition can have) are refused here, before any file is read, each as
 * `file#: message`; folders are passed over.
 */
export function listDefinitionFiles(project: DirProject, options: ListOptions = {}): DefinitionListing {
  const at = Date.now();
  const files: ListedDefinition[] = [];
  const refused: Problem[] = [];
  if (!options.missingOk) requireDefinitionsDir(project);
  for (const kind of ['view', 'screen'] as const) {
    const dir = join(project.definitionsDir, KIND_DIRS[kind]);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new CliError(`cannot read ${project.rel(dir)}: ${(e as Error).message}`, EXIT.invalid);
    }
    const shown = project.rel(dir);
    for (const entry of entries) {
      const name = entry.name;
      if (!name.endsWith('.json') || name.startsWith('.') || entry.isDirectory()) continue;
      const rel = `${KIND_DIRS[kind]}/${name}`;
      if (!inScope(project, rel)) continue;
      const file = shown ? `${shown}/${name}` : name;
      // A name read from the folder: joined without path.join's normalising, which a no-op run would pay per file.
      let abs = `${dir}${sep}${name}`;
      if (entry.isSymbolicLink()) {
        const link = linkTarget(project, abs);
        if ('refused' in link) {
          refused.push(refusal(file, link.refused));
          continue;
        }
        abs = link.target;
      } else if (!entry.isFile()) {
        refused.push(refusal(file, notRegularFile(notRegular(entry))));
        continue;
      }
      let st: Stats;
      try {
        st = statSync(abs);
      } catch (e) {
        throw new CliError(`cannot read ${file}: ${(e as Error).message}`, EXIT.invalid, 'run the command again once the file is in place');
      }
      if (st.isDirectory()) continue;
      if (!st.isFile()) refused.push(refusal(file, notRegularFile(notRegular(st))));
      else if (st.size > DEFINITION_MAX_BYTES) refused.push(refusal(file, tooLarge(st.size)));
      else files.push({ rel, file, kind, abs, stamp: stampOf(st) });
    }
  }
  if (refused.length) throw refusedFiles(refused.sort((a, b) => compareText(a.file, b.file)));
  files.sort((a, b) => compareText(a.rel, b.rel));
  return { files, at };
}

/** The texts of listed definition files. */
export function readListedFiles(listing: DefinitionListing): DefinitionFile[] {
  return listing.files.map((f) => ({ rel: f.rel, file: f.file, kind: f.kind, text: readDefinitionText(f) }));
}

/** Every in-scope definition file (`*.json` directly under views/ and screens/), sorted by path. */
export function readDefinitionFiles(project: DirProject, options: ListOptions = {}): DefinitionFile[] {
  return readListedFiles(listDefinitionFiles(project, options));
}

/** `views/12-stock-in.json` → view 12; undefined for a name pull did not write. */
export function definitionIdOf(rel: string): { kind: DefinitionKind; id: number } | undefined {
  const m = /^(views|screens)\/([1-9][0-9]*)-[^/]*\.json$/.exec(rel);
  if (!m) return undefined;
  const id = Number(m[2]);
  if (!Number.isSafeInteger(id)) return undefined;
  return { kind: m[1] === 'views' ? 'view' : 'screen', id };
}

export interface DirChanges {
  /** Files to create or overwrite, relative to definitionsDir. */
  write: { rel: string; text: string }[];
  /** Files to delete, relative to definitionsDir. */
  remove: string[];
}

/**
 * Applies writes and removals as close to all or nothing as a file system allows: every new text is
 * first written to a temp file beside its target (a failure there deletes the temp files and leaves
 * the folder as it was), then each is renamed over its target, then the removals follow.
 */
export function applyDirChanges(project: Pick<Project, 'definitionsDir' | 'rel'>, changes: DirChanges): void {
  const staged: { temp: string; target: string }[] = [];
  const createdDirs: string[] = [];
  try {
    for (const { rel, text } of changes.write) {
      const target = join(project.definitionsDir, ...rel.split('/'));
      const dir = dirname(target);
      if (!existsSync(dir)) {
        const first = mkdirSync(dir, { recursive: true });
        if (first) createdDirs.push(first);
      }
      // Unique beside its target for this process; not a secret, so no crypto (which a no-op run does not load).
      const temp = join(dir, `.${basename(target)}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
      staged.push({ temp, target });
      writeFileSync(temp, text);
    }
  } catch (e) {
    for (const { temp } of staged) rmSync(temp, { force: true });
    for (const dir of createdDirs.reverse()) rmSync(dir, { recursive: true, force: true });
    throw new CliError(
      `cannot write under ${project.rel(project.definitionsDir)}: ${(e as Error).message}`,
      EXIT.invalid,
      'nothing was changed',
    );
  }
  try {
    for (const { temp, target } of staged) renameSync(temp, target);
    for (const rel of changes.remove) unlinkSync(join(project.definitionsDir, ...rel.split('/')));
  } catch (e) {
    for (const { temp } of staged) rmSync(temp, { force: true });
    throw new CliError(
      `writing ${project.rel(project.definitionsDir)} failed part-way: ${(e as Error).message}`,
      EXIT.invalid,
      'run the command again',
    );
  }
}
