import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../cli/compile.js';
import { readDefinitionFiles } from '../../cli/definitions-dir.js';
import { main } from '../../cli/main.js';
import { checkTemplate, loadTemplates, templateOfGenerated, templateSources } from '../../cli/templates.js';
import { TEMPLATE_VARS, type TemplateName, type TemplateVars } from '../../templates/vars.js';

/**
 * The Handlebars templates: each default uses exactly its declared variables; a project's
 * templatesDir overrides some and the rest fall back; definition text can only pass through the
 * escaping helpers; a broken template is reported with its file and line; the hostile-labels
 * fixture through a custom template type-checks with zero diagnostics.
 */

const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'tests/fixtures');
const CUSTOM = join(FIXTURES, 'hostile-labels/custom-templates');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A project inside the repository (so react, zod and the @wastegen aliases resolve) with a scenario's definitions. */
function project(scenario: string, templates?: Record<string, string>): string {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'tmp', 'templates-'));
  made.push(dir);
  cpSync(join(FIXTURES, scenario, 'definitions'), join(dir, 'definitions'), { recursive: true });
  if (templates) {
    mkdirSync(join(dir, 'my-templates'));
    for (const [name, text] of Object.entries(templates)) writeFileSync(join(dir, 'my-templates', name), text);
    writeFileSync(join(dir, 'wastegen.config.json'), JSON.stringify({ templatesDir: 'my-templates' }));
  }
  return dir;
}

async function wastegen(dir: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'wastegen', ...args, '--cwd', dir], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function files(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.set(relative(root, join(d, e.name)).split(sep).join('/'), readFileSync(join(d, e.name), 'utf8'));
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

function diagnostics(paths: string[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error('tsconfig.json does not parse');
  const program = ts.createProgram(paths, { ...config.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('the default templates', () => {
  for (const source of templateSources()) {
    it(`${source.name}.hbs uses every declared variable and no other`, () => {
      const r = checkTemplate(source.name, source.text);
      expect(r.problems).toEqual([]);
      expect([...r.used].sort()).toEqual(Object.keys(TEMPLATE_VARS[source.name]).sort());
    });
  }

  it('are the only .hbs files of templates/, one per declared template', () => {
    const names = readdirSync(join(ROOT, 'templates'))
      .filter((f) => f.endsWith('.hbs'))
      .map((f) => f.replace(/\.hbs$/, ''))
      .sort();
    expect(names).toEqual(Object.keys(TEMPLATE_VARS).sort());
  });

  it('print every golden fixture exactly as expected/ holds it', () => {
    for (const scenario of ['basic-view', 'screens', 'hostile-labels']) {
      const root = join(FIXTURES, scenario);
      const sources = readDefinitionFiles({
        definitionsDir: join(root, 'definitions'),
        include: [],
        exclude: [],
        rel: (abs) => relative(root, abs).split(sep).join('/'),
      });
      const result = compile(sources);
      expect([...result.files.entries()]).toEqual([...files(join(root, 'expected')).entries()]);
      const defaults = templateSources().map((s) => s.file);
      for (const origin of result.origins.values()) expect(defaults).toContain(origin);
      expect(result.origins.size).toBe(result.files.size);
    }
  });
});

describe('straight-line templates', () => {
  /** Values of every kind, the texts hostile: quotes, a comment's end, line breaks, bidirectional marks. */
  const hostile = 'a\'b"c */ d\n\u202e e `$ 字段';
  const vars: { [N in TemplateName]: TemplateVars<N> } = {
    banner: { source: hostile },
    'view-schema': {
      source: hostile,
      title: hostile,
      viewId: 12,
      schemaName: 'stockInSchema',
      recordType: 'StockInRecord',
      schema: 'rules.form({}, [])',
    },
    'view-page': {
      source: 'definitions/views/12-stock-in.json',
      title: hostile,
      viewId: 0,
      modelName: 'stockInPage',
      componentName: 'StockInPage',
      schemaName: 'stockInSchema',
      recordType: 'StockInRecord',
      model: "{ kind: 'list' }",
    },
    'screen-page': {
      source: hostile,
      title: hostile,
      screenId: 3,
      engineComponent: 'FormPage',
      modelType: 'FormPageModel',
      modelName: 'screen3Page',
      componentName: 'Screen3Page',
      model: '{}',
    },
    'big-screen-config': { source: hostile, title: hostile, screenId: 4, configName: 'screen4Config', config: '{}' },
    'big-screen-page': { source: hostile, configName: 'screen4Config', componentName: 'Screen4Page' },
    routes: { source: hostile, entries: ['{ a: 1 }', '{ b: 2 }'] },
  };
  const names = Object.keys(TEMPLATE_VARS) as TemplateName[];

  /** Each template's text through both renderers: the same text, or both failing. */
  function compare(templatesDir?: string, given: Partial<typeof vars> = {}) {
    const fast = loadTemplates(templatesDir);
    const slow = loadTemplates(templatesDir, undefined, { handlebarsOnly: true });
    const outcome = (t: typeof fast, name: TemplateName) => {
      try {
        return t.render(name, (given[name] ?? vars[name]) as never);
      } catch (e) {
        return `failed: ${(e as Error).message}`;
      }
    };
    for (const name of names.filter((n) => n !== 'banner')) expect(outcome(fast, name), name).toBe(outcome(slow, name));
    return fast;
  }

  it('print every default template as Handlebars does; only those with blocks are left to it', () => {
    const fast = compare();
    expect(names.filter((n) => n !== 'banner' && !fast.straight(n))).toEqual(['routes']);
  });

  it('print custom templates as Handlebars does: whitespace control, comments, partials, helpers, and what fails', () => {
    const dir = project('basic-view', {
      'banner.hbs': '// from {{comment source}} {{! a comment }}\n',
      'view-page.hbs':
        '  {{> banner}}\n{{~! trimmed ~}}\n  x = {{{model}}}; {{braces (identifier modelName)}} {{braces (literal viewId)}} {{literal title}}\n\n{{viewId}}\n',
      'view-schema.hbs':
        '{{#if viewId}}{{schema}}{{/if}} {{identifier schemaName}} {{identifier recordType}} {{comment title}} {{comment source}}\n',
      'screen-page.hbs':
        '{{> banner}}\n{{comment title}} {{engineComponent}} {{modelType}} {{model}} {{identifier modelName}} {{identifier componentName}} {{screenId}}\n',
      'big-screen-page.hbs': 'a {{> banner}} b {{identifier configName}} {{identifier componentName}}\n',
    });
    // A name that is no identifier fails in the helper, as Handlebars would fail.
    const fast = compare(join(dir, 'my-templates'), { 'screen-page': { ...vars['screen-page'], modelName: 'not a name' } });
    expect(() => fast.render('screen-page', { ...vars['screen-page'], modelName: 'not a name' })).toThrow(/not a TypeScript identifier/);
    // The indented banner and the #if are Handlebars'; the rest is joined.
    expect(names.filter((n) => n !== 'banner' && fast.straight(n))).toEqual(['screen-page', 'big-screen-config', 'big-screen-page']);
  });
});

describe('a project templatesDir', () => {
  it('overrides the templates it holds; the others fall back to the defaults', async () => {
    const dir = project('hostile-labels', { 'view-page.hbs': readFileSync(join(CUSTOM, 'templates/view-page.hbs'), 'utf8') });
    cpSync(join(CUSTOM, 'frame.tsx'), join(dir, 'frame.tsx'));
    const r = await wastegen(dir, 'generate');
    expect(r.code, r.err).toBe(0);
    const out = files(join(dir, 'generated'));
    const expected = files(join(FIXTURES, 'hostile-labels/expected'));
    for (const [path, text] of expected) {
      if (path.endsWith('views/201-hostile/page.tsx')) {
        expect(out.get(path)).not.toBe(text);
        expect(out.get(path)).toContain('<ProjectFrame title={');
      } else expect(out.get(path), path).toBe(text);
    }
    expect((await wastegen(dir, 'check')).code).toBe(0);
  });

  it('passes the hostile-labels fixture through a custom template with zero TypeScript diagnostics', async () => {
    const dir = project('hostile-labels', { 'view-page.hbs': readFileSync(join(CUSTOM, 'templates/view-page.hbs'), 'utf8') });
    cpSync(join(CUSTOM, 'frame.tsx'), join(dir, 'frame.tsx'));
    expect((await wastegen(dir, 'generate')).code).toBe(0);
    const page = readFileSync(join(dir, 'generated/views/201-hostile/page.tsx'), 'utf8');
    // The title is a quoted literal in the prop and comment-safe in the doc comment: no raw line break, no */.
    const prop = /<ProjectFrame title=\{(.*)\} viewId=\{201\}>/.exec(page)?.[1];
    expect(prop).toMatch(/^(['"]).*\1$/);
    const doc = page.split('\n').find((l) => l.startsWith('/** '));
    expect(doc?.slice(3, -2)).not.toContain('*/');
    const paths = [...files(join(dir, 'generated')).keys()].map((f) => join(dir, 'generated', f));
    expect(diagnostics([...paths, join(dir, 'frame.tsx')])).toEqual([]);
  }, 60_000);

  it('refuses a raw definition string, naming the file and line', async () => {
    const dir = project('basic-view', {
      'view-schema.hbs': `{{> banner}}\n// {{title}}\nexport const {{identifier schemaName}} = {{schema}};\nexport type {{identifier recordType}} = {{viewId}};\n`,
    });
    const r = await wastegen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      "my-templates/view-schema.hbs:2: {{title}} would place a definition's text as it is; write {{comment title}} or {{literal title}}",
    );
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  });

  it('refuses a definition value smuggled out through lookup', async () => {
    const dir = project('basic-view', {
      'view-schema.hbs': `{{> banner}}\n// {{lookup this "title"}}\n`,
    });
    const r = await wastegen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/my-templates\/view-schema\.hbs:2: unknown helper "lookup"/);
  });

  it('reports a template that does not compile, and an unknown variable, with file and line', async () => {
    const dir = project('basic-view', {
      'view-page.hbs': '{{> banner}}\nline two\n{{#if model}}\nunclosed\n',
      'routes.hbs': '{{> banner}}\n\n{{nope}}\n',
    });
    const r = await wastegen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/my-templates\/view-page\.hbs:\d+: Parse error on line \d+/);
    expect(r.err).toMatch(/my-templates\/routes\.hbs:3: unknown variable "nope"; this template has: source, entries/);
  });

  it('is part of the generate cache: changing a custom template regenerates', async () => {
    const template = readFileSync(join(ROOT, 'templates/big-screen-page.hbs'), 'utf8');
    const dir = project('screens', { 'big-screen-page.hbs': template });
    expect((await wastegen(dir, 'generate')).code).toBe(0);
    expect((await wastegen(dir, 'generate')).out).toMatch(/is up to date/);
    writeFileSync(join(dir, 'my-templates/big-screen-page.hbs'), template.replace('export default', '// A project note.\nexport default'));
    const r = await wastegen(dir, 'generate');
    expect(r.out).toMatch(/generated \d+ pages/);
    expect(r.out).toMatch(/~ generated\/screens\/.*\/page\.tsx/);
  });

  it('rejects a templatesDir that does not exist', async () => {
    const dir = project('basic-view');
    writeFileSync(join(dir, 'wastegen.config.json'), JSON.stringify({ templatesDir: 'missing' }));
    const r = await wastegen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/templatesDir: the folder missing does not exist/);
  });
});

describe('wastegen build with a custom template that prints code tsc rejects', () => {
  it('names the template behind each error in a generated file', async () => {
    const page = readFileSync(join(ROOT, 'templates/view-page.hbs'), 'utf8');
    const dir = project('basic-view', {
      'view-page.hbs': page.replace('export default', 'export const pageTitle: number = {{literal title}};\n\nexport default'),
    });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const paths = { '@wastegen/model': ['../../src/model/index.ts'], '@wastegen/engine': ['../../src/engine/index.ts'] };
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { paths }, include: ['generated'] }),
    );
    const r = await wastegen(dir, 'build');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/generated\/views\/101-stock-in\/page\.tsx\(\d+,\d+\): error TS2322/);
    expect(r.err).toContain('  ↳ generated/views/101-stock-in/page.tsx was printed by the custom template my-templates/view-page.hbs');
    expect(r.err).toMatch(/hint: the errors are in code printed by my-templates\/view-page\.hbs/);
    expect(r.err).not.toContain('schema.ts was printed');
  }, 180_000);
});

describe('blame of a generated file', () => {
  it('names the template that prints each kind of file', () => {
    const cases: [string, boolean, TemplateName | undefined][] = [
      ['routes.ts', false, 'routes'],
      ['views/12-stock-in/schema.ts', false, 'view-schema'],
      ['views/12-stock-in/page.tsx', false, 'view-page'],
      ['screens/50-big-screen/config.ts', true, 'big-screen-config'],
      ['screens/50-big-screen/page.tsx', true, 'big-screen-page'],
      ['screens/30-list-preview/page.tsx', false, 'screen-page'],
      ['other.ts', false, undefined],
    ];
    for (const [rel, config, name] of cases) expect(templateOfGenerated(rel, config), rel).toBe(name);
  });
});
