import { execFileSync } from 'node:child_process';
import { relative, sep } from 'node:path';
import { compareText, type Problem } from '../../src/model/index.js';
import { DEFINITION_MAX_BYTES, tooLarge } from '../bounded-read.js';
import { type DefinitionFile, KIND_DIRS, refusal } from '../definitions-dir.js';
import { CliError, EXIT } from '../errors.js';
import { inScope, type Project } from '../project.js';

/**
 * The definitions of a git revision, read with git itself (`ls-tree` and one `cat-file --batch`),
 * never checked out: the working tree is left alone.
 */

function git(cwd: string, args: string[], input?: string): Buffer {
  try {
    return execFileSync('git', args, { cwd, input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: Buffer; code?: string; message: string };
    if (err.code === 'ENOENT') throw new CliError('git is not installed', EXIT.usage, 'wastegen review reads the base revision with git');
    const msg = err.stderr?.toString().trim() || err.message;
    throw new CliError(`git ${args[0]} failed: ${msg}`, EXIT.usage);
  }
}

/** The revision `review` compares with when none is given: the merge base with main (or origin/main, master). */
export function defaultBase(root: string): string {
  for (const branch of ['main', 'origin/main', 'master', 'origin/master']) {
    try {
      return execFileSync('git', ['merge-base', 'HEAD', branch], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    } catch {
      // Not this one.
    }
  }
  throw new CliError('no base revision: this repository has no main or master branch to compare with', EXIT.usage, 'pass --base <ref>');
}

/** The commit a revision names, refused with a clear message when git does not know it. */
export function resolveRevision(root: string, ref: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    throw new CliError(`--base ${ref}: git knows no such revision`, EXIT.usage, 'fetch it first (git fetch origin main) or name a commit');
  }
}

/**
 * The in-scope definition files at `commit`, as readDefinitionFiles gives the working tree's. A blob
 * larger than a definition can be (`max` bytes) is not read: like such a file in the working tree,
 * it is refused with its name, before anything is drawn.
 */
export function definitionFilesAt(project: Project, commit: string, max = DEFINITION_MAX_BYTES): DefinitionFile[] {
  const top = git(project.root, ['rev-parse', '--show-toplevel']).toString().trim();
  const dirInRepo = relative(top, project.definitionsDir).split(sep).join('/');
  // -l: each blob's size, so that none is read before it is known to be bounded.
  const listing = git(top, ['ls-tree', '-r', '-l', '-z', commit, '--', `${dirInRepo}/`]).toString();
  const wanted: { rel: string; kind: DefinitionFile['kind']; blob: string }[] = [];
  const refused: Problem[] = [];
  for (const entry of listing.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+) +(\d+)\t(.*)$/s.exec(entry);
    if (!m) continue;
    const rel = (m[3] as string).slice(dirInRepo.length + 1);
    const parts = rel.split('/');
    if (parts.length !== 2 || !parts[1]?.endsWith('.json') || parts[1].startsWith('.')) continue;
    const kind = parts[0] === KIND_DIRS.view ? 'view' : parts[0] === KIND_DIRS.screen ? 'screen' : undefined;
    if (!kind || !inScope(project, rel)) continue;
    const size = Number(m[2]);
    if (size > max) {
      const problem = refusal(project.rel(`${project.definitionsDir}/${rel}`), tooLarge(size, max));
      refused.push({ ...problem, message: `at ${commit.slice(0, 12)}, ${problem.message}` });
      continue;
    }
    wanted.push({ rel, kind, blob: m[1] as string });
  }
  if (refused.length)
    throw new CliError(
      `${refused.length} definition file${refused.length === 1 ? '' : 's'} of the base revision cannot be read; nothing was drawn`,
      EXIT.invalid,
      undefined,
      refused,
    );
  if (!wanted.length) return [];
  const out = git(top, ['cat-file', '--batch'], `${wanted.map((w) => w.blob).join('\n')}\n`);
  const files: DefinitionFile[] = [];
  let at = 0;
  for (const w of wanted) {
    const nl = out.indexOf(10, at);
    const header = out.subarray(at, nl).toString();
    const size = Number(header.split(' ')[2]);
    const text = out.subarray(nl + 1, nl + 1 + size).toString('utf8');
    at = nl + 1 + size + 1;
    files.push({ rel: w.rel, kind: w.kind, file: project.rel(`${project.definitionsDir}/${w.rel}`), text });
  }
  return files.sort((a, b) => compareText(a.rel, b.rel));
}
