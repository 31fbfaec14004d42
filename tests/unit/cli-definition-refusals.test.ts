import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { DEFINITION_MAX_CHARS } from '../../src/model/index.js';

/**
 * What `wastegen generate` and `wastegen check` refuse across definitions or in one definition's
 * size, run in-process on throw-away copies of the basic-view fixture: each refusal is a
 * `file#/pointer: message` line, exit 1, and nothing written.
 */

const FIXTURES = join(import.meta.dirname, '../fixtures');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

async function wastegen(...args: string[]): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const code = await main(['node', 'wastegen', ...args], { out: () => {}, err: (l) => err.push(...l.split('\n')) });
  return { code, err };
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-'));
  made.push(dir);
  cpSync(join(FIXTURES, 'basic-view/definitions'), join(dir, 'definitions'), { recursive: true });
  return dir;
}

/** A copy of 102-stock-out.json under another name and id, edited. */
function twin(dir: string, name: string, edit: (json: Record<string, any>) => void = () => {}): string {
  const json = JSON.parse(readFileSync(join(dir, 'definitions/views/102-stock-out.json'), 'utf8'));
  json.id = 9102;
  edit(json);
  writeFileSync(join(dir, 'definitions/views', name), `${JSON.stringify(json, null, 2)}\n`);
  return `definitions/views/${name}`;
}

/** Runs generate then check; both must refuse with exactly these `file#pointer` heads, and write nothing. */
async function expectRefused(dir: string, heads: string[]): Promise<string[]> {
  for (const command of ['generate', 'check']) {
    const r = await wastegen(command, '--cwd', dir);
    expect(r.code, r.err.join('\n')).toBe(1);
    const problems = r.err.filter((l) => /^definitions\/\S.*#\S*: /.test(l)).map((l) => l.slice(0, l.indexOf(': ')));
    expect(problems.sort(), command).toEqual([...heads].sort());
  }
  expect(existsSync(join(dir, 'generated'))).toBe(false);
  return (await wastegen('check', '--cwd', dir)).err;
}

describe('refused across definitions', () => {
  it('two views with one componentName: both files, at the componentName', async () => {
    const dir = project();
    const b = twin(dir, '170-stock-out2.json');
    const a = 'definitions/views/102-stock-out.json';
    const err = await expectRefused(dir, [`${a}#/disMenu/componentName`, `${b}#/disMenu/componentName`]);
    expect(err.join('\n')).toContain(`${a}#/disMenu/componentName: componentName stockOut is also that of ${b}`);
    expect(err.join('\n')).toContain(`${b}#/disMenu/componentName: componentName stockOut is also that of ${a}`);
  });

  it('output folders differing only in letter case: both files', async () => {
    const dir = project();
    const b = twin(dir, '102-Stock-Out.json', (j) => {
      j.disMenu.componentName = 'stockOutTwin';
    });
    // A file system that ignores case holds one of the two names only: nothing to test there.
    if (
      !readdirSync(join(dir, 'definitions/views')).includes('102-Stock-Out.json') ||
      existsSync(join(dir, 'definitions/views/102-STOCK-OUT.json'))
    )
      return;
    const a = 'definitions/views/102-stock-out.json';
    const err = await expectRefused(dir, [`${a}#`, `${b}#`]);
    expect(err.join('\n')).toContain('folder names differing only in letter case are one folder on macOS and Windows');
  });
});

describe('refused in one definition', () => {
  it('a file longer than the limit, named with its size', async () => {
    const dir = project();
    const json = JSON.parse(readFileSync(join(dir, 'definitions/views/102-stock-out.json'), 'utf8'));
    json.name = 'x'.repeat(DEFINITION_MAX_CHARS);
    writeFileSync(join(dir, 'definitions/views/102-stock-out.json'), JSON.stringify(json));
    const err = await expectRefused(dir, ['definitions/views/102-stock-out.json#']);
    expect(err.join('\n')).toMatch(/102-stock-out\.json#: the file holds \d+ characters, more than the \d+ \(8 Mi\) a definition may hold/);
  });

  it('a javascript: websiteUrl, at the button', async () => {
    const dir = project();
    const file = join(dir, 'definitions/views/101-stock-in.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    const buttons: { configure: Record<string, unknown> }[] = json.disTemplate.btnDIYOption;
    const i = buttons.findIndex((b) => b.configure.action === 'website');
    expect(i).toBeGreaterThanOrEqual(0);
    (buttons[i] as { configure: Record<string, unknown> }).configure.websiteUrl = "javascript:alert('x')";
    writeFileSync(`${file}.tmp`, JSON.stringify(json, null, 2));
    renameSync(`${file}.tmp`, file);
    await expectRefused(dir, [`definitions/views/101-stock-in.json#/disTemplate/btnDIYOption/${i}/configure/websiteUrl`]);
  });
});
