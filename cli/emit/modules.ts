import type { BigScreenModel, ContainerPageModel, FormPageModel, ListPageModel, PageModel, PageOutline } from '../../src/model/index.js';
import { fieldRules, type RuleCall, relationsOf } from '../../src/model/index.js';
import type { TemplateName } from '../../templates/vars.js';
import type { Templates } from '../templates.js';
import { LINE_WIDTH, literal, propertyKey, stringLiteral } from './literal.js';

/**
 * Page models → module texts. The models are already settled (src/model); this only names things
 * and prints them. Every string from a definition goes through `literal`/`stringLiteral`/`commentText`.
 */

/** `stockIn` → `stockIn`, `StockIn`; identifiers of one module never clash with another's. */
function identifiers(base: string) {
  const lower = base[0]?.toLowerCase() + base.slice(1);
  const upper = base[0]?.toUpperCase() + base.slice(1);
  return { lower, upper };
}

/** `rules.text({ label: '…' })`, hugging its one object argument like Biome does. */
function printRule(call: RuleCall, indent: number, prefix: number): string {
  const head = `rules.${call.rule}(`;
  return `${head}${literal(call.options, indent, prefix + head.length, 2, { expandDepth: 0 })})`;
}

export function printFormSchema(page: ListPageModel): string {
  const fields = fieldRules(page.form);
  const relations = relationsOf(page.form);
  const entries = fields.map(([name, call]) => {
    const key = `${propertyKey(name)}: `;
    return `    ${key}${printRule(call, 2, key.length)},`;
  });
  if (fields.length === 0) {
    const flat = `rules.form({}, ${literal(relations, 0, 0, 0, { expandDepth: 0 })})`;
    if (!flat.includes('\n') && flat.length + 40 < LINE_WIDTH) return flat;
  }
  const shape = fields.length ? `{\n${entries.join('\n')}\n  }` : '{}';
  return `rules.form(\n  ${shape},\n  ${literal(relations, 1, 0, 1, { expandDepth: 0 })},\n)`;
}

export interface EmittedModule {
  /** Relative to generated/, with forward slashes. */
  path: string;
  text: string;
  /** The template that printed it. */
  template: TemplateName;
}

export function emitView(page: ListPageModel, dir: string, t: Templates): EmittedModule[] {
  const { lower, upper } = identifiers(page.componentName);
  const source = page.source.file;
  const title = page.title;
  const schemaName = `${lower}Schema`;
  const recordType = `${upper}Record`;
  return [
    {
      path: `${dir}/schema.ts`,
      template: 'view-schema',
      text: t.render('view-schema', { source, title, viewId: page.viewId, schemaName, recordType, schema: printFormSchema(page) }),
    },
    {
      path: `${dir}/page.tsx`,
      template: 'view-page',
      text: t.render('view-page', {
        source,
        title,
        viewId: page.viewId,
        modelName: `${lower}Page`,
        componentName: `${upper}Page`,
        schemaName,
        recordType,
        model: literal(page, 0, `export const ${lower}Page: ListPageModel = `.length, 1),
      }),
    },
  ];
}

export function emitScreen(page: FormPageModel | ContainerPageModel, dir: string, t: Templates): EmittedModule[] {
  const modelType = page.kind === 'form' ? 'FormPageModel' : 'ContainerPageModel';
  const modelName = `screen${page.screenId}Page`;
  return [
    {
      path: `${dir}/page.tsx`,
      template: 'screen-page',
      text: t.render('screen-page', {
        source: page.source.file,
        title: page.title,
        screenId: page.screenId,
        engineComponent: page.kind === 'form' ? 'FormPage' : 'ContainerPage',
        modelType,
        modelName,
        componentName: `Screen${page.screenId}Page`,
        model: literal(page, 0, `export const ${modelName}: ${modelType} = `.length, 1),
      }),
    },
  ];
}

export function emitBigScreen(page: BigScreenModel, dir: string, t: Templates): EmittedModule[] {
  const configName = `screen${page.screenId}Config`;
  const source = page.source.file;
  const config = literal(page, 0, `export const ${configName}: BigScreenModel = `.length, 1);
  return [
    {
      path: `${dir}/config.ts`,
      template: 'big-screen-config',
      text: t.render('big-screen-config', { source, title: page.title, screenId: page.screenId, configName, config }),
    },
    {
      path: `${dir}/page.tsx`,
      template: 'big-screen-page',
      text: t.render('big-screen-page', { source, configName, componentName: `Screen${page.screenId}Page` }),
    },
  ];
}

export function emitPage(page: PageModel, dir: string, t: Templates): EmittedModule[] {
  switch (page.kind) {
    case 'list':
      return emitView(page, dir, t);
    case 'bigScreen':
      return emitBigScreen(page, dir, t);
    default:
      return emitScreen(page, dir, t);
  }
}

export interface RouteEntry {
  page: PageOutline;
  /** Module path of the page relative to generated/, without extension, e.g. views/12-stock-in/page */
  module: string;
}

export function emitRoutes(entries: RouteEntry[], source: string, t: Templates): EmittedModule {
  const printed = entries.map(({ page, module }) => {
    const id = page.kind === 'list' ? page.viewId : page.screenId;
    const lines = [
      `path: ${stringLiteral(page.path)}`,
      `kind: ${stringLiteral(page.kind === 'list' ? 'view' : 'screen')}`,
      `id: ${id}`,
      `title: ${stringLiteral(page.title)}`,
      `hash: ${stringLiteral(page.source.hash)}`,
      `status: ${page.source.status}`,
      `load: () => import(${stringLiteral(`./${module}`)})`,
    ];
    return `{\n${lines.map((l) => `    ${l},`).join('\n')}\n  }`;
  });
  return { path: 'routes.ts', template: 'routes', text: t.render('routes', { source, entries: printed }) };
}
