import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFINITION_MAX_BYTES, readBoundedFile, UnreadableFile } from '../../cli/bounded-read.js';
import { main } from '../../cli/main.js';
import { DEFINITION_MAX_CHARS } from '../../src/model/index.js';

/**
 * What `wastegen generate` and `wastegen check` refuse across definitions or in one definition's
 * size, run in-process on throw-away copies of the basic-view fixture: each refusal is a
 * `file#/pointer: message` line, exit 1, and nothing written.
 */

const FIXTURES = join(import.meta.dirname, '../fixtures');
const BIN = join(import.meta.dirname, '../../cli/bin.js');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

async function wastegen(...args: string[]): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const code = await main(['node', 'wastegen', ...args], { out: () => {}, err: (l) => err.push(...l.split('\n')) });
  return { code, err };
}

/** A command run with --json: its one document. */
async function wastegenJson(...args: string[]): Promise<Record<string, any>> {
  const out: string[] = [];
  await main(['node', 'wastegen', ...args], { out: (l) => out.push(l), err: () => {} });
  return JSON.parse(out.join('\n'));
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

  it('a big screen drawing from addresses the app may not: each bgImg, at its pointer', async () => {
    const dir = project();
    const json = JSON.parse(readFileSync(join(FIXTURES, 'screens/definitions/screens/2-big-screen.json'), 'utf8'));
    json.disTemplate.canvasConfigure.basic.bgImg = 'javascript:alert(1)';
    json.disTemplate.layout[0].container.style = { bgImg: 'x.png") , url("https://evil.example/t.png' };
    mkdirSync(join(dir, 'definitions/screens'), { recursive: true });
    writeFileSync(join(dir, 'definitions/screens/2-big-screen.json'), JSON.stringify(json, null, 2));
    const file = 'definitions/screens/2-big-screen.json';
    const err = await expectRefused(dir, [
      `${file}#/disTemplate/canvasConfigure/basic/bgImg`,
      `${file}#/disTemplate/layout/0/container/style/bgImg`,
    ]);
    expect(err).toContain(
      `${file}#/disTemplate/canvasConfigure/basic/bgImg: the app draws no javascript: images; an image address must be an https URL or a path of the app`,
    );
    expect(err).toContain(
      `${file}#/disTemplate/layout/0/container/style/bgImg: an image address may not hold a double quote, a backslash or a control character (line breaks, tabs)`,
    );
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

/**
 * Files of definitions/ that are not read at all: anything but a regular file (a FIFO would block the
 * run, a device never end), a symbolic link out of the project, and a file whose size alone says it
 * holds more than DEFINITION_MAX_CHARS. Each is refused from its stat, before any file is read.
 */
describe('refused before reading', () => {
  it('judges sizes with a bound that holds: no 8 Mi characters take more bytes', () => {
    // A UTF-16 unit (what a text's length counts) decodes from at most 3 bytes of UTF-8.
    expect(DEFINITION_MAX_BYTES).toBe(3 * DEFINITION_MAX_CHARS);
    expect(Buffer.from('\uffff', 'utf8').length).toBe(3);
    expect(Buffer.from('😀', 'utf8').length / '😀'.length).toBe(2);
  });

  it('a FIFO: refused at once, in a child process that must not block', () => {
    const dir = project();
    const fifo = join(dir, 'definitions/views/150-pipe.json');
    if (spawnSync('mkfifo', [fifo]).status !== 0) return;
    for (const command of ['generate', 'check']) {
      const r = spawnSync(process.execPath, [BIN, command, '--cwd', dir], { encoding: 'utf8', timeout: 60_000 });
      expect(r.signal, `${command} blocked on the FIFO`).toBeNull();
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        'definitions/views/150-pipe.json#: the file is a FIFO (named pipe), not a regular file; nothing was read from it',
      );
    }
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  }, 120_000);

  it('a FIFO added after a generate: not up to date, refused', async () => {
    const dir = project();
    expect((await wastegen('generate', '--cwd', dir)).code).toBe(0);
    const before = readFileSync(join(dir, 'generated/routes.ts'), 'utf8');
    const fifo = join(dir, 'definitions/screens/150-pipe.json');
    mkdirSync(dirname(fifo), { recursive: true });
    if (spawnSync('mkfifo', [fifo]).status !== 0) return;
    const r = await wastegen('generate', '--cwd', dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'definitions/screens/150-pipe.json#: the file is a FIFO (named pipe), not a regular file; nothing was read from it',
    );
    expect(r.err).toContain('wastegen: 1 definition file cannot be read; nothing was written');
    expect(readFileSync(join(dir, 'generated/routes.ts'), 'utf8')).toBe(before);
    const json = await wastegenJson('check', '--cwd', dir, '--json');
    expect(json.ok).toBe(false);
    expect(json.problems.map((p: { code: string; file: string; pointer: string }) => `${p.code} ${p.file}#${p.pointer}`)).toEqual([
      'E_JSON definitions/screens/150-pipe.json#',
    ]);
  });

  it('a symbolic link to /dev/zero or to a file outside the project: refused; to a file inside it: read', async () => {
    const dir = project();
    symlinkSync('/dev/zero', join(dir, 'definitions/views/151-zero.json'));
    const outside = mkdtempSync(join(tmpdir(), 'wastegen-outside-'));
    made.push(outside);
    writeFileSync(join(outside, 'x.json'), readFileSync(join(dir, 'definitions/views/102-stock-out.json')));
    symlinkSync(join(outside, 'x.json'), join(dir, 'definitions/views/152-outside.json'));
    symlinkSync('nowhere.json', join(dir, 'definitions/views/153-dangling.json'));
    const err = await expectRefused(dir, [
      'definitions/views/151-zero.json#',
      'definitions/views/152-outside.json#',
      'definitions/views/153-dangling.json#',
    ]);
    expect(err).toContain(
      'definitions/views/151-zero.json#: the file is a symbolic link to a file outside the project, not a regular file; nothing was read from it',
    );
    expect(err).toContain(
      'definitions/views/153-dangling.json#: the file is a symbolic link to nothing, not a regular file; nothing was read from it',
    );

    // A link to a file of the project is read as that file.
    const inside = project();
    const stockOut = join(inside, 'definitions/views/102-stock-out.json');
    const json = JSON.parse(readFileSync(stockOut, 'utf8'));
    json.id = 9102;
    json.disMenu.componentName = 'stockOutLinked';
    writeFileSync(join(inside, 'linked.json'), JSON.stringify(json));
    symlinkSync(join(inside, 'linked.json'), join(inside, 'definitions/views/170-linked.json'));
    const r = await wastegen('generate', '--cwd', inside);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(existsSync(join(inside, 'generated/views/170-linked/page.tsx'))).toBe(true);
  });

  it('a file larger than 3 × 8 Mi bytes: refused from its stat, and not read', async () => {
    const dir = project();
    const file = join(dir, 'definitions/views/160-huge.json');
    // Sparse: the size is there, the bytes are not; reading it would take 24 MiB of memory.
    writeFileSync(file, '');
    truncateSync(file, DEFINITION_MAX_BYTES + 1);
    const err = await expectRefused(dir, ['definitions/views/160-huge.json#']);
    expect(err).toContain(
      `definitions/views/160-huge.json#: the file is ${DEFINITION_MAX_BYTES + 1} bytes, more than the ${DEFINITION_MAX_BYTES} (24 MiB) that 8 Mi characters can take; it was not read`,
    );
  });

  it('reads no more than its bound, and refuses what is not a regular file when it comes to read it', () => {
    const dir = project();
    const file = join(dir, 'small.json');
    writeFileSync(file, '0123456789');
    expect(readBoundedFile(file, 10).toString()).toBe('0123456789');
    expect(() => readBoundedFile(file, 9)).toThrow(/the file is 10 bytes, more than the 9/);
    const link = join(dir, 'link.json');
    symlinkSync(file, link);
    // A link put where a file was listed is not followed.
    expect(() => readBoundedFile(link)).toThrow(/a symbolic link put in place of the file/);
    const fifo = join(dir, 'pipe.json');
    if (spawnSync('mkfifo', [fifo]).status === 0) {
      const error = (() => {
        try {
          readBoundedFile(fifo);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(UnreadableFile);
      expect((error as UnreadableFile).code).toBe('E_JSON');
    }
  });
});
