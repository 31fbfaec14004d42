import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { type ComponentType, createElement as h, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ZodType } from 'zod';
import { compile, outputDir } from '../../cli/compile.js';
import { readDefinitionFiles } from '../../cli/definitions-dir.js';
import { createEngineServices } from '../../src/app/engine-services.js';
import { EngineForm } from '../../src/engine/form/engine-form.js';
import { OptionsProvider } from '../../src/engine/options/index.js';
import { BigScreenPage, ContainerPage, FormPage, ListPage } from '../../src/engine/pages.js';
import type { GeneratedRoute } from '../../src/engine/routes.js';
import { resolveDefinition } from '../../src/engine/runtime/resolve.js';
import { ViewFromDefinition } from '../../src/engine/runtime/resolved-page.js';
import { EngineServicesProvider } from '../../src/engine/services.js';
import {
  type BigScreenModel,
  buildSchema,
  decodeDefinition,
  definitionHash,
  type FieldModel,
  type FormModel,
  isWarning,
  type ListPageModel,
  normalizeDefinition,
  type PageModel,
} from '../../src/model/index.js';
import { samplesFor } from '../helpers/validation-samples.js';

/**
 * Runtime fallback and parity: for every definition that generates a page — definitions/
 * (generated/) and the golden fixtures (tests/fixtures/<scenario>/expected/) — the generated page
 * and the runtime renderer must be the same page:
 * - the generated module's page model is what normalizeDefinition() gives the runtime renderer;
 * - both render the same DOM (react-dom/server, same providers, the same roles);
 * - the generated schema module and buildSchema() give the same verdicts and messages
 *   (tests/unit/schema-parity.test.ts covers the fixtures field by field; here definitions/ too,
 *   plus whole records).
 */

const ROOT = join(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'tests/fixtures');

interface Scenario {
  name: string;
  /** The project root the definition files are relative to. */
  root: string;
  /** Where the generated modules are. */
  out: string;
}

interface Case {
  scenario: Scenario;
  kind: 'view' | 'screen';
  file: string;
  json: unknown;
  /** The page compile() generated for it. */
  compiled: PageModel;
  /** Module folder under scenario.out, e.g. views/12-stock-in */
  dir: string;
}

function scenarios(): Scenario[] {
  const out: Scenario[] = [{ name: 'definitions', root: ROOT, out: join(ROOT, 'generated') }];
  for (const name of readdirSync(FIXTURES).sort()) {
    const root = join(FIXTURES, name);
    if (existsSync(join(root, 'expected'))) out.push({ name, root, out: join(root, 'expected') });
  }
  return out;
}

function casesOf(scenario: Scenario): { cases: Case[]; errors: string[]; files: string[] } {
  const project = {
    definitionsDir: join(scenario.root, 'definitions'),
    include: [],
    exclude: [],
    rel: (abs: string) => relative(scenario.root, abs).split(sep).join('/'),
  };
  const sources = readDefinitionFiles(project);
  const result = compile(sources);
  const errors = result.problems.filter((p) => !isWarning(p)).map((p) => `${p.file}${p.pointer}: ${p.message}`);
  const cases: Case[] = [];
  for (const page of result.pages) {
    const source = sources.find((s) => s.file === page.source.file);
    if (!source) throw new Error(`no source for ${page.source.file}`);
    const dir = outputDir(source);
    if (!result.files.has(`${dir}/page.tsx`)) throw new Error(`no generated page for ${source.file}`);
    cases.push({
      scenario,
      kind: source.kind,
      file: source.file,
      json: JSON.parse(source.text),
      compiled: page,
      dir,
    });
  }
  return { cases, errors, files: [...result.files.keys()] };
}

type RecordSchema = ZodType<Record<string, unknown>>;

interface GeneratedModule {
  Page: ComponentType;
  model: PageModel;
  schema?: RecordSchema;
}

const isModel = (v: unknown): v is PageModel =>
  !!v && typeof v === 'object' && ['list', 'form', 'container', 'bigScreen'].includes((v as { kind?: string }).kind ?? '');
const isSchema = (v: unknown): v is RecordSchema => typeof (v as ZodType | undefined)?.safeParse === 'function';

async function loadGenerated(c: Case): Promise<GeneratedModule> {
  const base = join(c.scenario.out, c.dir);
  const page = (await import(join(base, 'page.tsx'))) as Record<string, unknown>;
  const Page = page.default as ComponentType;
  let model = Object.values(page).find(isModel);
  let schema: RecordSchema | undefined;
  if (existsSync(join(base, 'config.ts'))) model ??= Object.values(await import(join(base, 'config.ts'))).find(isModel);
  if (existsSync(join(base, 'schema.ts'))) schema = Object.values(await import(join(base, 'schema.ts'))).find(isSchema);
  if (!model) throw new Error(`${base}: no exported page model`);
  return { Page, model, schema };
}

async function loadRoutes(s: Scenario): Promise<readonly GeneratedRoute[]> {
  const mod = (await import(join(s.out, 'routes.ts'))) as { generatedRoutes: readonly GeneratedRoute[] };
  return mod.generatedRoutes;
}

/**
 * The providers the app mounts pages in: antd in Chinese, a router at the page's path, and the
 * app's engine services for these roles (its data provider over the request client: no call
 * leaves a server rendering, effects do not run). A lazy part's fallback carries React's development
 * component stack, which names the page's own component: it is left out of the comparison.
 */
function render(node: ReactNode, path = '/', roles: readonly string[] = ['admin']): string {
  const services = createEngineServices({ roles, navigate: () => {}, activePath: () => path });
  return renderToString(
    h(ConfigProvider, { locale: zhCN }, h(MemoryRouter, { initialEntries: [path] }, h(EngineServicesProvider, { services }, node))),
  ).replace(/ data-cstck="[^"]*"/g, '');
}

/** What the runtime renderer draws for a model (the same component the generated page composes). */
function runtimeElement(model: PageModel): ReactNode {
  switch (model.kind) {
    case 'list':
      return h(ListPage, { model, schema: buildSchema(model.form) });
    case 'container':
      return h(ContainerPage, { model });
    case 'form':
      return h(FormPage, { model });
    case 'bigScreen':
      return h(BigScreenPage, { model });
  }
}

/** The roles a page is rendered with: everything, and list-only (no add, edit, delete or buttons). */
function roleSets(model: PageModel): string[][] {
  if (model.kind !== 'list') return [['admin']];
  return [['admin'], [model.permissions.list], ['ROLE_SYSTEM_DEFAULT']];
}

/** A definition as `/api/generation/detail` (or the screen's) answers it: templates as JSON text, timestamps. */
function asServed(json: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(json as Record<string, unknown>) };
  for (const k of ['disTemplate', 'disMenu']) if (out[k] !== undefined && typeof out[k] !== 'string') out[k] = JSON.stringify(out[k]);
  return { ...out, createTime: '2026-02-01 08:00:00', updateTime: '2026-02-02 08:00:00' };
}

// ---- validation samples --------------------------------------------------------------------------

const verdict = (schema: ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success
    ? { ok: true, data: r.data }
    : { ok: false, issues: r.error.issues.map((i) => ({ path: i.path, code: i.code, message: i.message })) };
};

/** A record that every field's rules accept, when one of the samples passes on its own. */
function passingRecord(schema: ZodType, fields: readonly FieldModel[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const f of fields) {
    for (const sample of samplesFor(f)) {
      const r = schema.safeParse({ ...record, [f.name]: sample });
      if (r.success || !r.error.issues.some((i) => i.path[0] === f.name)) {
        if (sample !== undefined) record[f.name] = sample;
        break;
      }
    }
  }
  return record;
}

/** Compares the two schemas on samples; returns how many inputs were compared. */
function compareSchemas(generated: ZodType, built: ZodType, form: FormModel): number {
  let compared = 0;
  const same = (input: unknown, what: string) => {
    expect(verdict(generated, input), what).toEqual(verdict(built, input));
    compared++;
  };
  same({}, 'empty record');
  same(undefined, 'no record');
  same('not an object', 'not an object');
  const good = passingRecord(built, form.fields);
  same(good, 'a passing record');
  for (const f of form.fields) {
    for (const sample of samplesFor(f)) {
      same({ [f.name]: sample }, `${f.name} = ${JSON.stringify(sample)} alone`);
      same({ ...good, [f.name]: sample }, `${f.name} = ${JSON.stringify(sample)} in a passing record`);
    }
  }
  // Relations: each trigger at its relation value, at another and empty, with the fields it controls empty.
  for (const f of form.fields) {
    for (const rel of [f.showRelation, f.requiredRelation]) {
      if (!rel) continue;
      const cleared = Object.fromEntries(rel.fields.map((name) => [name, undefined]));
      for (const value of [rel.value, 'other', undefined]) {
        same({ ...good, [f.name]: value }, `${f.name} = ${JSON.stringify(value)} (a relation trigger)`);
        same({ ...good, ...cleared, [f.name]: value }, `${f.name} = ${JSON.stringify(value)}, ${rel.fields.join(',')} empty`);
      }
    }
  }
  return compared;
}

// ---- the tests -----------------------------------------------------------------------------------

const all = scenarios().map((s) => ({ s, ...casesOf(s) }));

beforeAll(() => {
  // Effects do not run in server rendering; a call made while rendering would hang, not reach a network.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<never>(() => {})),
  );
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('the parity set', () => {
  it('covers definitions/ and every fixture that generates pages, with every page kind', () => {
    expect(all.map((x) => x.s.name)).toEqual(expect.arrayContaining(['definitions', 'basic-view', 'hostile-labels', 'screens']));
    for (const x of all) expect(x.errors, x.s.name).toEqual([]);
    const kinds = new Set(all.flatMap((x) => x.cases.map((c) => c.compiled.kind)));
    expect([...kinds].sort()).toEqual(['bigScreen', 'container', 'form', 'list']);
    // Every generated page module on disk belongs to a case (nothing escapes the parity check).
    for (const x of all) {
      const onDisk = ['views', 'screens'].flatMap((k) =>
        existsSync(join(x.s.out, k)) ? readdirSync(join(x.s.out, k)).map((d) => `${k}/${d}`) : [],
      );
      expect(onDisk.sort(), x.s.name).toEqual(x.cases.map((c) => c.dir).sort());
    }
  });
});

for (const { s, cases } of all) {
  describe(s.name, () => {
    for (const c of cases) {
      const label = `${c.dir} (${c.compiled.kind})`;

      it(`${label}: the generated model is the runtime model`, async () => {
        const gen = await loadGenerated(c);
        const runtime = normalizeDefinition({ kind: c.kind, file: c.file, json: c.json });
        expect(runtime.problems.filter((p) => !isWarning(p))).toEqual([]);
        expect(gen.model).toEqual(runtime.page);
        expect(gen.model).toEqual(c.compiled);
        // The hash the app compares with the server's definition is the definition's.
        expect(gen.model.source.hash).toBe(definitionHash(decodeDefinition(c.json as Record<string, unknown>)));
      });

      // A definition file holding disTemplate/disMenu as JSON text hashes like the decoded one (sourceOf).
      it(`${label}: the app picks the generated page while the hash agrees, else the runtime renderer`, async () => {
        const routes = await loadRoutes(s);
        const gen = await loadGenerated(c);
        const served = asServed(c.json);
        const r = resolveDefinition(c.kind, served, { routes });
        expect(r.kind).toBe('generated');
        if (r.kind === 'generated') {
          expect(r.hash).toBe(gen.model.source.hash);
          expect(r.route.path).toBe(gen.model.path);
        }
        const forced = resolveDefinition(c.kind, served, { routes, runtimeOnly: true });
        // The same model; only its source names where it came from (the server, not a file).
        expect(forced.kind === 'runtime' && { ...forced.page, source: { ...forced.page.source, file: c.file } }).toEqual(gen.model);
        // A changed definition (a renamed page) is drawn at run time from what the server holds now.
        const changed = { ...served, name: `${String(served.name)}（改）` };
        const r2 = resolveDefinition(c.kind, changed, { routes });
        expect(r2.kind).toBe('runtime');
        if (r2.kind === 'runtime') expect(r2.reason).toBe('hash-differs');
        // Without a generated page at all.
        const r3 = resolveDefinition(c.kind, served, { routes: [] });
        expect(r3.kind === 'runtime' && r3.reason).toBe('no-generated-page');
      });

      it(`${label}: the generated page and the runtime renderer render the same DOM`, async () => {
        const gen = await loadGenerated(c);
        const runtime = normalizeDefinition({ kind: c.kind, file: c.file, json: c.json }).page as PageModel;
        for (const roles of roleSets(runtime)) {
          const generated = render(h(gen.Page), gen.model.path, roles);
          const drawn = render(runtimeElement(runtime), runtime.path, roles);
          expect(generated.length).toBeGreaterThan(100);
          expect(drawn, `roles ${roles.join(',')}`).toBe(generated);
          if (runtime.kind === 'list') {
            // What a page route draws at run time, from the raw definition.
            const routed = render(h(ViewFromDefinition, { raw: c.json, runtimeOnly: true }), runtime.path, roles);
            expect(routed, `routed, roles ${roles.join(',')}`).toBe(generated);
          }
        }
      });

      if (c.compiled.kind === 'bigScreen') {
        it(`${label}: the generated page and the runtime renderer draw the same screen: canvas, header, every container and chart`, async () => {
          const gen = await loadGenerated(c);
          const runtime = normalizeDefinition({ kind: 'screen', file: c.file, json: c.json }).page as BigScreenModel;
          const generated = render(h(gen.Page), gen.model.path);
          expect(render(h(BigScreenPage, { model: runtime }), runtime.path)).toBe(generated);
          const { basic } = runtime.canvas;
          expect(generated).toContain(`class="wg-screen-canvas" style="width:${basic.width}px;height:${basic.height}px`);
          // As React writes text and attributes.
          const html = (t: string) =>
            t.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[ch] as string);
          const title = String(runtime.canvas.mainTitle.content ?? runtime.title);
          expect(generated).toContain(`>${html(title)}</h1>`);
          for (const item of runtime.layout) {
            expect(generated).toContain(`data-item="${html(item.i)}"`);
            for (const chart of item.charts)
              expect(generated).toContain(`data-chart="${html(`${item.i}/${chart.chartIndex}`)}" data-chart-kind="${chart.kind}"`);
          }
          // Charts wait for their data; nothing is fetched while rendering on the server.
          expect(generated.match(/data-chart-kind=/g)?.length).toBe(runtime.layout.reduce((n, i) => n + i.charts.length, 0));
        });
      }

      if (c.compiled.kind === 'list') {
        it(`${label}: the add, edit and look forms render the same DOM`, async () => {
          const gen = await loadGenerated(c);
          const model = gen.model as ListPageModel;
          const runtime = normalizeDefinition({ kind: 'view', file: c.file, json: c.json }).page as ListPageModel;
          expect(gen.schema).toBeDefined();
          const dicts = runtime.form.fields.map((f) => f.dict);
          const initial = Object.fromEntries(
            runtime.form.fields.map((f) => [f.name, f.kind === 'long' || f.kind === 'decimal' ? 1 : f.kind === 'file' ? '[]' : 'x']),
          );
          for (const mode of ['add', 'edit', 'look'] as const) {
            const values = mode === 'add' ? undefined : initial;
            const generated = render(
              h(
                OptionsProvider,
                { dicts },
                h(EngineForm, { form: model.form, schema: gen.schema as RecordSchema, mode, initialValues: values }),
              ),
            );
            const drawn = render(
              h(
                OptionsProvider,
                { dicts },
                h(EngineForm, { form: runtime.form, schema: buildSchema(runtime.form), mode, initialValues: values }),
              ),
            );
            expect(drawn, mode).toBe(generated);
            // Not an empty form: every field shown and not under a show relation is there; 查看 leaves out an
            // empty file or picture field.
            const related = new Set(runtime.form.fields.flatMap((x) => x.showRelation?.fields ?? []));
            const shown = (x: (typeof runtime.form.fields)[number]) => !(mode === 'look' && x.kind === 'file');
            for (const f of runtime.form.fields.filter((x) => (x.show === 1 || x.show === 3) && !related.has(x.name) && shown(x)))
              expect(generated, `${mode}: ${f.name}`).toContain(`data-field="${f.name}"`);
          }
        });

        it(`${label}: the generated schema and buildSchema give the same verdicts and messages`, async () => {
          const gen = await loadGenerated(c);
          const runtime = normalizeDefinition({ kind: 'view', file: c.file, json: c.json }).page as ListPageModel;
          expect(gen.schema).toBeDefined();
          const compared = compareSchemas(gen.schema as RecordSchema, buildSchema(runtime.form), runtime.form);
          expect(compared).toBeGreaterThan(runtime.form.fields.length * 2);
        });
      }
    }
  });
}
