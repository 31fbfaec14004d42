import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { writeSyntheticProject } from '../../bench/lib/synthetic-definitions.js';
import { ROOT } from '../../cli/build.mjs';
import { compile } from '../../cli/compile.js';
import { readDefinitionFiles } from '../../cli/definitions-dir.js';
import { sha } from '../../cli/generate-cache.js';
import { listFiles } from '../../cli/generated-dir.js';
import { LEAD, type ReadAhead, ReadAheadTaker, readAhead, readAheadPosition, runReadAhead } from '../../cli/prefetch.js';
import { loadProject } from '../../cli/project.js';
import { sourceHashOf } from '../../src/model/index.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('wastegen-ahead-');

/** Files to read ahead: JSON definitions, a text that is not JSON, and one that is not there. */
function files(): string[] {
  const dir = tempDir();
  const out: string[] = [];
  for (let i = 0; i < 3 * LEAD; i++) {
    const file = join(dir, `${i}.json`);
    writeFileSync(file, JSON.stringify({ id: i, disTemplate: JSON.stringify({ formOption: [{ name: `f${i}`, chName: `字段${i}` }] }) }));
    out.push(file);
  }
  writeFileSync(join(dir, 'bad.json'), '{ not json');
  out.push(join(dir, 'bad.json'), join(dir, 'missing.json'));
  return out;
}

describe('reading definitions ahead of the compile', () => {
  it('gives each text with the hash of its bytes and the content hash the page records', () => {
    const list = files();
    const first = readAhead(0, list[0] as string) as ReadAhead;
    const bytes = readFileSync(list[0] as string);
    expect(first).toEqual({ i: 0, text: bytes.toString('utf8'), sha: sha(bytes), hash: sourceHashOf(JSON.parse(bytes.toString('utf8'))) });
    expect(readAhead(1, list.at(-2) as string)).toMatchObject({ hash: undefined });
    expect(readAhead(2, list.at(-1) as string)).toBeUndefined();
  });

  it('runs at most LEAD definitions ahead, serves them in order, and leaves the rest to the compile', async () => {
    const list = files();
    const { port1, port2 } = new MessageChannel();
    const position = readAheadPosition();
    let stop = false;
    const running = runReadAhead({ type: 'prefetch', files: list, port: port1, position }, () => stop);
    const taker = new ReadAheadTaker(port2, position);
    const seen: ReadAhead[] = [];
    const receive = () => {
      for (let m = receiveMessageOnPort(port2); m; m = receiveMessageOnPort(port2)) seen.push(m.message as ReadAhead);
    };
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    // Until the compile takes one, the read-ahead stops LEAD files in: it waits for the compile.
    while (seen.length < LEAD) {
      await turn();
      receive();
    }
    // It reads a few files a turn: given as many turns again, it has read no further.
    for (let k = 0; k < LEAD; k++) await turn();
    receive();
    expect(seen.map((e) => e.i)).toEqual([...Array(LEAD).keys()]);
    // Those already received stand for what the taker would have got: it reads the rest as it goes.
    for (const e of seen) expect(e.text).toBe(readFileSync(list[e.i] as string, 'utf8'));
    const served: (ReadAhead | undefined)[] = [];
    for (let i = LEAD; i < list.length; i++) {
      // A compile slower than the read-ahead: it has had a few turns to read on when each is taken.
      for (let k = 0; k < 8; k++) await turn();
      served.push(taker.take(i));
    }
    // The first was never read: the compile had taken none (position 0) while LEAD were waiting, so
    // the read-ahead stopped before it, and the compile read it itself. Every other one was read
    // ahead; the text that is not JSON has no content hash, and the file that is not there is left
    // to the compile, which reports it.
    expect(served[0]).toBeUndefined();
    expect(served.slice(1, -2).map((e) => e?.i)).toEqual(list.slice(LEAD + 1, -2).map((_, k) => LEAD + 1 + k));
    for (const e of served.slice(1, -2)) expect(e?.hash).toBe(sourceHashOf(JSON.parse(readFileSync(list[e?.i ?? 0] as string, 'utf8'))));
    expect(served.at(-2)).toMatchObject({ i: list.length - 2, hash: undefined });
    expect(served.at(-1)).toBeUndefined();
    stop = true;
    taker.close();
    await running;
  });

  it('gives the compiled CLI the same pages as a compile that reads every file itself', () => {
    const dir = tempDir();
    writeSyntheticProject(dir, 150);
    cpSync(join(ROOT, 'tests/fixtures/screens/definitions'), join(dir, 'definitions'), { recursive: true });
    cpSync(join(ROOT, 'tests/fixtures/hostile-labels/definitions'), join(dir, 'definitions'), { recursive: true });
    const r = spawnSync(process.execPath, [join(ROOT, 'cli/bin.js'), 'generate', '--cwd', dir, '--quiet'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const project = loadProject({ cwd: dir });
    const expected = compile(readDefinitionFiles(project));
    const written = listFiles(join(dir, 'generated'));
    expect(written).toEqual([...expected.files.keys()].sort());
    for (const f of written) expect(readFileSync(join(dir, 'generated', f), 'utf8'), f).toBe(expected.files.get(f));
    // The stats the writer recorded stand: the next run has nothing to do.
    const again = spawnSync(process.execPath, [join(ROOT, 'cli/bin.js'), 'generate', '--cwd', dir], { encoding: 'utf8' });
    expect(again.stdout).toMatch(/up to date/);
    expect(readdirSync(dir).sort()).toEqual(['definitions', 'generated', 'node_modules']);
  }, 120_000);
});
