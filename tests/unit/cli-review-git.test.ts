import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../cli/errors.js';
import { loadProject } from '../../cli/project.js';
import { definitionFilesAt } from '../../cli/review/git.js';

/**
 * The base revision of a review is read from git without checking it out, and no blob of it is
 * read whole before its size is known to fit a definition.
 */
let repo: string;
let commit: string;

function git(...args: string[]): string {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

const SMALL = '{"id":1}\n';
const LARGE = `${JSON.stringify({ id: 2, name: 'x'.repeat(400) })}\n`;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'wastegen-review-git-'));
  mkdirSync(join(repo, 'definitions/views'), { recursive: true });
  mkdirSync(join(repo, 'definitions/screens'), { recursive: true });
  writeFileSync(join(repo, 'definitions/views/1-small.json'), SMALL);
  writeFileSync(join(repo, 'definitions/views/2-large.json'), LARGE);
  writeFileSync(join(repo, 'definitions/screens/3-note.txt'), 'not a definition');
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('-c', 'user.email=review@example.com', '-c', 'user.name=review', 'commit', '-qm', 'base');
  commit = git('rev-parse', 'HEAD');
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe("the review's base revision", () => {
  it('gives the texts of the definition files at the revision', () => {
    const files = definitionFilesAt(loadProject({ cwd: repo }), commit);
    expect(files.map((f) => [f.file, f.kind, f.text])).toEqual([
      ['definitions/views/1-small.json', 'view', SMALL],
      ['definitions/views/2-large.json', 'view', LARGE],
    ]);
  });

  it('refuses a blob larger than a definition can be, by name, without reading it', () => {
    let thrown: unknown;
    try {
      definitionFilesAt(loadProject({ cwd: repo }), commit, 100);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CliError);
    const error = thrown as CliError;
    expect(error.message).toBe('1 definition file of the base revision cannot be read; nothing was drawn');
    expect(error.problems).toEqual([
      expect.objectContaining({
        code: 'E_TOO_LARGE',
        file: 'definitions/views/2-large.json',
        pointer: '',
        message: expect.stringMatching(new RegExp(`^at ${commit.slice(0, 12)}, the file is ${LARGE.length} bytes, more than the 100 `)),
      }),
    ]);
  });
});
