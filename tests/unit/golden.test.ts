import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../cli/compile.js';
import { readDefinitionFiles } from '../../cli/definitions-dir.js';
import { applyToDisk, listFiles } from '../../cli/generated-dir.js';
import { isWarning, normalizeDefinition, type PageModel } from '../../src/model/index.js';

/**
 * Golden fixtures: tests/fixtures/<scenario>/definitions in, expected/ (the generated files) out, or
 * problems.json ({ errors, warnings } as code + pointer [+ file]) for scenarios that must fail.
 * UPDATE_GOLDEN=1 rewrites expected/ from the current emitters; review the diff before committing.
 */
const FIXTURES = join(import.meta.dirname, '../fixtures');
const scenarios = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

function load(scenario: string) {
  const root = join(FIXTURES, scenario);
  const project = {
    definitionsDir: join(root, 'definitions'),
    include: [],
    exclude: [],
    rel: (abs: string) => relative(root, abs).split(sep).join('/'),
  };
  const sources = readDefinitionFiles(project);
  return { root, sources, result: compile(sources) };
}

interface Expected {
  errors?: { code: string; pointer: string; file?: string }[];
  warnings?: { code: string; pointer: string; file?: string }[];
}

const key = (p: { code: string; pointer: string; file?: string }, withFile: boolean) =>
  `${withFile ? `${p.file} ` : ''}${p.code} ${p.pointer}`;

describe('golden fixtures', () => {
  it('has a scenario for every kind of input it must read or refuse', () => {
    expect(scenarios).toEqual(
      expect.arrayContaining([
        'basic-view',
        'hostile-labels',
        'screens',
        'loose-booleans',
        'loose-numbers',
        'loose-lists',
        'loose-empty-strings',
        'loose-embedded-json',
        'loose-unknown-keys',
        'loose-undesigned',
        'error-coercion',
        'error-semantics',
        'error-json',
        'system-fields',
        'error-reserved-names',
      ]),
    );
  });

  for (const scenario of scenarios) {
    it(scenario, () => {
      const { root, result } = load(scenario);
      const problemsFile = join(root, 'problems.json');
      const expected: Expected = existsSync(problemsFile) ? JSON.parse(readFileSync(problemsFile, 'utf8')) : {};
      const withFile = [...(expected.errors ?? []), ...(expected.warnings ?? [])].some((p) => p.file !== undefined);
      const errors = result.problems.filter((p) => !isWarning(p));
      const warnings = result.problems.filter(isWarning);
      expect(errors.map((p) => key(p, withFile)).sort()).toEqual((expected.errors ?? []).map((p) => key(p, withFile)).sort());
      expect(warnings.map((p) => key(p, withFile)).sort()).toEqual((expected.warnings ?? []).map((p) => key(p, withFile)).sort());
      for (const p of result.problems) {
        expect(p.file).toMatch(/^definitions\/(views|screens)\/[^/]+\.json$/);
        expect(p.message.length).toBeGreaterThan(0);
      }
      if (errors.length) {
        // An invalid set produces nothing at all, so generate can never write half of it.
        expect(result.files.size).toBe(0);
        expect(existsSync(join(root, 'expected'))).toBe(false);
        return;
      }
      const expectedDir = join(root, 'expected');
      if (process.env.UPDATE_GOLDEN) applyToDisk(expectedDir, result.files);
      expect([...result.files.keys()].sort()).toEqual(listFiles(expectedDir));
      for (const [path, text] of result.files) expect(text, path).toBe(readFileSync(join(expectedDir, path), 'utf8'));
    });
  }

  it('compiles twice to identical bytes without touching its input', () => {
    for (const scenario of scenarios) {
      const a = load(scenario);
      const before = a.sources.map((s) => readFileSync(join(a.root, s.file), 'utf8'));
      const b = load(scenario);
      expect([...b.result.files.entries()]).toEqual([...a.result.files.entries()]);
      expect(a.sources.map((s) => readFileSync(join(a.root, s.file), 'utf8'))).toEqual(before);
    }
  });
});

describe('looseness: every loose spelling reads as the strict one', () => {
  const modelOf = (scenario: string, file = 'definitions/views/301-vehicle.json'): PageModel => {
    const text = readFileSync(join(FIXTURES, scenario, file), 'utf8');
    const r = normalizeDefinition({ kind: 'view', file, json: JSON.parse(text) });
    expect(r.problems.filter((p) => !isWarning(p))).toEqual([]);
    const { source: _source, ...rest } = r.page as PageModel;
    return rest as PageModel;
  };
  const strict = modelOf('loose-strict');

  for (const scenario of ['loose-booleans', 'loose-numbers', 'loose-lists', 'loose-empty-strings', 'loose-embedded-json']) {
    it(`${scenario} reads as the strict spelling`, () => {
      expect(modelOf(scenario)).toEqual(strict);
    });
  }

  it('unknown keys are kept and change nothing else', () => {
    const m = modelOf('loose-unknown-keys');
    if (m.kind !== 'list' || strict.kind !== 'list') throw new Error('expected list pages');
    expect(m.form.fields[0]?.extra).toEqual({ placeholderColor: '#999' });
    expect(m.buttons[0]?.extra).toEqual({ icon: 'el-icon-check' });
    expect(m.extra).toEqual({ template: { someNewOption: [1, 2] }, basicOption: { newToggle: true } });
    const { extra: _extra, ...field } = m.form.fields[0] as NonNullable<(typeof m.form.fields)[0]>;
    const { extra: _buttonExtra, ...button } = m.buttons[0] as NonNullable<(typeof m.buttons)[0]>;
    const { extra: _pageExtra, ...page } = m;
    expect({ ...page, buttons: [button, ...m.buttons.slice(1)], form: { ...m.form, fields: [field, ...m.form.fields.slice(1)] } }).toEqual(
      strict,
    );
  });

  it('an unknown dataType reads as varchar, with a warning', () => {
    const m = modelOf('loose-undesigned');
    if (m.kind !== 'list' || strict.kind !== 'list') throw new Error('expected list pages');
    expect(m.form.fields[0]?.dataType).toBe('varchar');
    expect(m).toEqual(strict);
  });

  it('a definition not designed yet is skipped, not an error', () => {
    const { result } = load('loose-undesigned');
    expect(result.skipped.map((s) => s.id).sort()).toEqual([302, 303]);
    expect(result.pages.map((p) => (p.kind === 'list' ? p.viewId : p.screenId))).toEqual([301]);
  });
});
