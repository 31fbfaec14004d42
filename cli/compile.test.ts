import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFINITION_MAX_CHARS, formatProblem, outlineOf } from '../src/model/index.js';
import { compile, compileOne, type DefinitionSource, sharedOutputDirs } from './compile.js';
import { CliError, EXIT } from './errors.js';
import { loadTemplates, type Templates } from './templates.js';

/** compile() and compileOne(): what goes wrong in one definition is reported against its file. */

const VIEW = readFileSync(join(import.meta.dirname, '../tests/fixtures/basic-view/definitions/views/101-stock-in.json'), 'utf8');

function source(rel: string, text = VIEW): DefinitionSource {
  return { kind: 'view', rel, file: `definitions/${rel}`, text };
}

/** The basic view with one more key, as JSON text: unknown keys are kept in the model and printed. */
function withExtra(json: string): string {
  return VIEW.replace(/^\{/, `{"extraValue":${json},`);
}

describe('output folders', () => {
  it('refuses two definitions whose folders differ only in letter case, naming both', () => {
    const problems = sharedOutputDirs([
      { file: 'definitions/views/17-Vehicle.json', rel: 'views/17-Vehicle.json' },
      { file: 'definitions/views/17-vehicle.json', rel: 'views/17-vehicle.json' },
      { file: 'definitions/views/18-other.json', rel: 'views/18-other.json' },
    ]);
    expect(problems.map(formatProblem).map((l) => l.split('\n')[0])).toEqual([
      'definitions/views/17-Vehicle.json#: its pages would go to generated/views/17-Vehicle/, as those of definitions/views/17-vehicle.json (generated/views/17-vehicle/): folder names differing only in letter case are one folder on macOS and Windows',
      'definitions/views/17-vehicle.json#: its pages would go to generated/views/17-vehicle/, as those of definitions/views/17-Vehicle.json (generated/views/17-Vehicle/): folder names differing only in letter case are one folder on macOS and Windows',
    ]);
    expect(problems.every((p) => p.code === 'E_DUPLICATE')).toBe(true);
  });

  it('still refuses names that map to the very same folder', () => {
    const problems = sharedOutputDirs([
      { file: 'definitions/views/12 stock-in.json', rel: 'views/12 stock-in.json' },
      { file: 'definitions/views/12-stock-in.json', rel: 'views/12-stock-in.json' },
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      'its pages would go to generated/views/12-stock-in/, as those of definitions/views/12-stock-in.json',
      'its pages would go to generated/views/12-stock-in/, as those of definitions/views/12 stock-in.json',
    ]);
  });

  it('lets views and screens with one name be', () => {
    expect(
      sharedOutputDirs([
        { file: 'definitions/views/1-a.json', rel: 'views/1-a.json' },
        { file: 'definitions/screens/1-A.json', rel: 'screens/1-A.json' },
      ]),
    ).toEqual([]);
  });
});

describe('a definition that cannot be compiled', () => {
  it('refuses a file longer than the limit before parsing it, as a problem of the whole file', () => {
    const huge = `{"name":"${'x'.repeat(DEFINITION_MAX_CHARS)}"}`;
    const r = compile([source('views/90-bigstr.json', huge), source('views/101-stock-in.json')]);
    expect(r.problems.map((p) => [p.file, p.code, p.pointer])).toEqual([['definitions/views/90-bigstr.json', 'E_TOO_LARGE', '']]);
    expect(formatProblem(r.problems[0] as never)).toMatch(/^definitions\/views\/90-bigstr\.json#: the file holds \d+ characters/);
    expect(r.files.size).toBe(0);
  });

  it('takes a file just within the limit', () => {
    const text = VIEW.replace(/\s+$/, '');
    const padded = `${text}${' '.repeat(DEFINITION_MAX_CHARS - text.length)}`;
    expect(compile([source('views/101-stock-in.json', padded)]).problems).toEqual([]);
  });

  it('reports a nesting too deep to print as a problem of its file, on one thread and on several', () => {
    const bad = source('views/91-deep.json', withExtra(`${'['.repeat(20_000)}0${']'.repeat(20_000)}`));
    const r = compile([bad, source('views/101-stock-in.json')]);
    expect(r.problems.map((p) => [p.file, p.code, p.pointer])).toEqual([['definitions/views/91-deep.json', 'E_TOO_LARGE', '']]);
    expect(r.files.size).toBe(0);
    const one = compileOne(bad, 'views/91-deep', () => loadTemplates());
    expect(one.parseProblems.map((p) => [p.file, p.code])).toEqual([['definitions/views/91-deep.json', 'E_TOO_LARGE']]);
    expect(one.modules).toBeUndefined();
  });

  it('names the file in any other failure, keeping an expected one expected', () => {
    const failing =
      (error: Error): (() => Templates) =>
      () => ({
        fileOf: () => 'templates/view-page.hbs',
        straight: () => false,
        render: () => {
          throw error;
        },
      });
    const s = source('views/101-stock-in.json');
    expect(() => compileOne(s, 'views/101-stock-in', failing(new TypeError('x is undefined')))).toThrow(
      'while compiling definitions/views/101-stock-in.json: x is undefined',
    );
    let caught: unknown;
    try {
      compileOne(s, 'views/101-stock-in', failing(new CliError('templates/view-page.hbs:3: boom', EXIT.invalid, 'fix the template')));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CliError);
    expect((caught as CliError).message).toBe('definitions/views/101-stock-in.json: templates/view-page.hbs:3: boom');
    expect((caught as CliError).hint).toBe('fix the template');
  });
});

describe('a compile that hands its files on', () => {
  const ROOT = join(import.meta.dirname, '..');
  const read = (scenario: string, rel: string): DefinitionSource => ({
    kind: rel.startsWith('views/') ? 'view' : 'screen',
    rel,
    file: `definitions/${rel}`,
    text: readFileSync(join(ROOT, 'tests/fixtures', scenario, 'definitions', rel), 'utf8'),
  });
  const screens = ['screens/1-list-preview.json', 'screens/2-big-screen.json', 'screens/3-form-preview.json', 'screens/4-container.json'];

  it('keeps the outline of each page, and gives the same files, problems and routes as one that keeps the models', () => {
    const sources = [source('views/101-stock-in.json'), ...screens.map((rel) => read('screens', rel))];
    const kept = compile(sources);
    const handed = new Map<string, string>();
    const streamed = compile(sources, 'definitions/', { onFile: (path, text) => handed.set(path, text) });
    expect(streamed.pages).toEqual(kept.pages.map(outlineOf));
    expect(streamed.pages.some((p) => 'columns' in p)).toBe(false);
    expect(streamed.problems).toEqual(kept.problems);
    expect(handed).toEqual(kept.files);
  });

  it('still finds two definitions of one view, and one componentName twice, from their outlines', () => {
    const streamed = compile([source('views/101-stock-in.json'), source('views/102-copy.json')], 'definitions/', { onFile: () => {} });
    expect(streamed.problems.filter((p) => p.code === 'E_DUPLICATE').map((p) => p.message)).toEqual([
      'view 101 is also defined in definitions/views/101-stock-in.json',
      'componentName stockIn is also that of definitions/views/102-copy.json, so the pages would answer to the same permissions (stockIn:list, stockIn:add, …)',
      'componentName stockIn is also that of definitions/views/101-stock-in.json, so the pages would answer to the same permissions (stockIn:list, stockIn:add, …)',
    ]);
  });
});
