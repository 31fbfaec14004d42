import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { PARTIALS, TEMPLATE_VARS, type TemplateName, type TemplateVars, type VarKind } from '../templates/vars.js';
import { commentText, stringLiteral } from './emit/literal.js';
import { CliError, EXIT } from './errors.js';
import { DEFAULT_TEMPLATES_DIR } from './paths.js';

/**
 * The Handlebars templates that print generated modules: the defaults in templates/, each of which a
 * project may override with a file of the same name in its templatesDir.
 *
 * Safety: a definition's text reaches a template wrapped, so that it can only be placed through the
 * escaping helpers (`{{comment}}`, `{{literal}}`, `{{identifier}}`). Every template is checked before
 * it is used: it may name only its declared variables, and never place a text or an identifier
 * variable as it is; a wrapped value that reaches the output anyway (through `lookup`, say) stops
 * the run. Errors name the template file and line.
 */

const HELPERS = ['literal', 'comment', 'identifier', 'braces'] as const;
const BLOCKS = new Set(['if', 'unless', 'each']);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value taken from a definition: only the helpers may print it. */
class DefinitionValue {
  constructor(
    readonly value: string,
    readonly name: string,
  ) {}
  toString(): string {
    throw new UnsafePlacement(this.name);
  }
}

class UnsafePlacement extends Error {
  constructor(readonly variable: string) {
    super(`the definition value "${variable}" reached the output without an escaping helper`);
  }
}

/** Output of an escaping helper: safe to place. */
class Escaped {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const raw = (v: unknown): unknown => (v instanceof DefinitionValue ? v.value : v instanceof Escaped ? v.text : v);

function helperError(helper: string, message: string): Error {
  return new Error(`{{${helper}}}: ${message}`);
}

function createEnv(): typeof Handlebars {
  const hb = Handlebars.create();
  hb.registerHelper('literal', (v: unknown) => {
    const x = raw(v);
    if (typeof x === 'string') return new Escaped(stringLiteral(x));
    if (typeof x === 'number' && Number.isFinite(x)) return new Escaped(String(x));
    throw helperError('literal', `expected a text or a number, got ${typeof x}`);
  });
  hb.registerHelper('comment', (v: unknown) => {
    const x = raw(v);
    if (typeof x !== 'string' && typeof x !== 'number') throw helperError('comment', `expected a text, got ${typeof x}`);
    return new Escaped(commentText(String(x)));
  });
  hb.registerHelper('identifier', (v: unknown) => {
    const x = raw(v);
    if (typeof x !== 'string' || !IDENTIFIER.test(x)) throw helperError('identifier', `not a TypeScript identifier: ${JSON.stringify(x)}`);
    return new Escaped(x);
  });
  hb.registerHelper('braces', (v: unknown) => {
    if (v instanceof DefinitionValue) throw new UnsafePlacement(v.name);
    return new Escaped(`{${String(v)}}`);
  });
  return hb;
}

// ----- the check of a template -----

interface Loc {
  start: { line: number; column: number };
}
interface Node {
  type: string;
  loc?: Loc;
  [key: string]: any;
}

export interface TemplateProblem {
  line: number;
  message: string;
}

/** Variables a template names, and what it does wrong. Partials' variables count as the includer's. */
export function checkTemplate(name: TemplateName, source: string): { used: Set<string>; problems: TemplateProblem[] } {
  const declared = TEMPLATE_VARS[name] as Record<string, VarKind>;
  const used = new Set<string>();
  const problems: TemplateProblem[] = [];
  let ast: Node;
  try {
    ast = Handlebars.parse(source) as unknown as Node;
  } catch (e) {
    const err = e as Error & { lineNumber?: number };
    const line = err.lineNumber ?? Number(/line (\d+)/.exec(err.message)?.[1] ?? 1);
    return { used, problems: [{ line, message: err.message.split('\n')[0] as string }] };
  }
  const list = Object.keys(declared).join(', ');
  const add = (node: Node, message: string) => problems.push({ line: node.loc?.start.line ?? 1, message });

  /** A variable reference: its root name, checked against the declarations. In an #each body only `this` and `../x`. */
  const variable = (p: Node, inEach: boolean): string | undefined => {
    if (p.type !== 'PathExpression') return undefined;
    if (p.data) return undefined;
    if (inEach && p.depth === 0) {
      if (p.original !== 'this' && p.original !== '.')
        add(p, `inside {{#each}} only {{this}} and ../variables can be used, not ${p.original}`);
      return undefined;
    }
    const root = p.parts[0] as string | undefined;
    if (!root) return undefined;
    if (!(root in declared)) {
      add(p, `unknown variable "${root}"; this template has: ${list}`);
      return undefined;
    }
    used.add(root);
    return root;
  };
  const kindOf = (v: string | undefined) => (v === undefined ? undefined : declared[v]);

  const checkParam = (helper: string, param: Node, inEach: boolean) => {
    if (param.type === 'SubExpression') {
      const inner = param.path.original;
      if (helper !== 'braces' || (inner !== 'identifier' && inner !== 'literal'))
        add(param, `{{${helper}}} takes a variable, not (${inner} …)`);
      for (const q of param.params) checkParam(inner, q, inEach);
      return;
    }
    if (param.type !== 'PathExpression') return;
    const kind = kindOf(variable(param, inEach));
    if (!kind) return;
    const allowed: Record<string, VarKind[]> = {
      literal: ['text', 'number'],
      comment: ['text', 'number'],
      identifier: ['identifier'],
      braces: ['code', 'number'],
    };
    if (!(allowed[helper] ?? []).includes(kind)) add(param, `{{${helper}}} cannot take ${param.original}, a ${kind} variable`);
  };

  const walk = (nodes: Node[], inEach: boolean) => {
    for (const node of nodes) {
      switch (node.type) {
        case 'MustacheStatement':
        case 'SubExpression': {
          const head = node.path.original as string;
          if ((HELPERS as readonly string[]).includes(head)) {
            if (node.params.length !== 1) add(node, `{{${head}}} takes exactly one variable`);
            for (const p of node.params) checkParam(head, p, inEach);
          } else if (node.params.length || node.hash) {
            add(node, `unknown helper "${head}"; the helpers are ${HELPERS.join(', ')} (and #if, #unless, #each)`);
          } else {
            const v = variable(node.path, inEach);
            const kind = kindOf(v);
            if (kind === 'text' || kind === 'identifier')
              add(
                node,
                `{{${v}}} would place a definition's ${kind} as it is; write ${kind === 'text' ? `{{comment ${v}}} or {{literal ${v}}}` : `{{identifier ${v}}}`}`,
              );
            if (kind === 'codeList') add(node, `{{${v}}} is a list; write {{#each ${v}}}{{this}}{{/each}}`);
          }
          break;
        }
        case 'BlockStatement': {
          const head = node.path.original as string;
          if (!BLOCKS.has(head)) add(node, `unknown block "#${head}"; the blocks are #if, #unless and #each`);
          for (const p of node.params) {
            const v = variable(p, inEach);
            if (head === 'each' && v !== undefined && kindOf(v) !== 'codeList') add(p, `{{#each}} takes a list variable, not ${v}`);
          }
          walk(node.program?.body ?? [], inEach || head === 'each');
          walk(node.inverse?.body ?? [], inEach);
          break;
        }
        case 'PartialStatement':
        case 'PartialBlockStatement': {
          const partial = node.name.original as TemplateName;
          if (!PARTIALS.includes(partial)) add(node, `unknown partial "${partial}"; the partials are ${PARTIALS.join(', ')}`);
          else for (const v of Object.keys(TEMPLATE_VARS[partial])) if (v in declared) used.add(v);
          break;
        }
        case 'DecoratorBlock':
        case 'Decorator':
          add(node, 'decorators are not supported');
          break;
        default:
          break;
      }
    }
  };
  walk(ast.body as Node[], false);
  return { used, problems };
}

// ----- the set of templates of a project -----

export interface TemplateSource {
  name: TemplateName;
  /** Absolute path. */
  file: string;
  /** Whether it comes from the project's templatesDir. */
  custom: boolean;
  text: string;
}

/** Each template's file: the project's override when there is one, else the default. */
export function templateSources(templatesDir?: string): TemplateSource[] {
  return (Object.keys(TEMPLATE_VARS) as TemplateName[]).map((name) => {
    const custom = templatesDir ? join(templatesDir, `${name}.hbs`) : undefined;
    const useCustom = custom !== undefined && existsSync(custom);
    const file = useCustom ? custom : join(DEFAULT_TEMPLATES_DIR, `${name}.hbs`);
    return { name, file, custom: useCustom, text: readFileSync(file, 'utf8') };
  });
}

export interface Templates {
  render<N extends TemplateName>(name: N, vars: TemplateVars<N>): string;
  /** The file a template was read from, for messages. */
  fileOf(name: TemplateName): string;
}

/** Shown in messages: relative to the project when inside it. */
type ShowPath = (absolute: string) => string;

/**
 * Loads, checks and compiles the templates. Any problem in any template is a CliError listing each
 * as `file:line: message`.
 */
export function loadTemplates(templatesDir?: string, show: ShowPath = (p) => p): Templates {
  const sources = templateSources(templatesDir);
  const errors: string[] = [];
  for (const s of sources) for (const p of checkTemplate(s.name, s.text).problems) errors.push(`${show(s.file)}:${p.line}: ${p.message}`);
  if (errors.length)
    throw new CliError(
      `${errors.length} problem${errors.length === 1 ? '' : 's'} in the templates; nothing was written:\n  ${errors.join('\n  ')}`,
      EXIT.invalid,
      'fix the template (see "Templates" in docs/cli.md for the variables and helpers)',
    );
  const hb = createEnv();
  const byName = new Map(sources.map((s) => [s.name, s]));
  for (const name of PARTIALS) hb.registerPartial(name, (byName.get(name) as TemplateSource).text);
  const compiled = new Map<TemplateName, HandlebarsTemplateDelegate>();
  for (const s of sources) {
    if (PARTIALS.includes(s.name)) continue;
    compiled.set(
      s.name,
      hb.compile(s.text, { noEscape: true, strict: true, knownHelpers: { literal: true, comment: true, identifier: true, braces: true } }),
    );
  }
  return {
    fileOf: (name) => (byName.get(name) as TemplateSource).file,
    render(name, vars) {
      const kinds = TEMPLATE_VARS[name] as Record<string, VarKind>;
      const context: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(vars as Record<string, unknown>))
        context[k] = kinds[k] === 'text' || kinds[k] === 'identifier' ? new DefinitionValue(String(v), k) : v;
      const template = compiled.get(name);
      if (!template) throw new Error(`no template ${name}`);
      try {
        return template(context);
      } catch (e) {
        // A text longer than JavaScript holds is the size of what is printed, not a fault of the template.
        if (e instanceof RangeError) throw e;
        const at = /- (\d+):\d+$/.exec((e as Error).message)?.[1];
        const file = show((byName.get(name) as TemplateSource).file);
        throw new CliError(`${file}${at ? `:${at}` : ''}: ${(e as Error).message}`, EXIT.invalid, 'fix the template; nothing was written');
      }
    },
  };
}

/**
 * The template that printed a file of generated/ (path relative to it), from the file's place:
 * views/…/schema.ts and page.tsx, screens/…/config.ts and page.tsx (a big screen's when a config.ts
 * is beside it), routes.ts.
 */
export function templateOfGenerated(rel: string, hasConfigBeside: boolean): TemplateName | undefined {
  if (rel === 'routes.ts') return 'routes';
  const m = /^(views|screens)\/[^/]+\/(schema\.ts|page\.tsx|config\.ts)$/.exec(rel);
  if (!m) return undefined;
  if (m[1] === 'views') return m[2] === 'schema.ts' ? 'view-schema' : m[2] === 'page.tsx' ? 'view-page' : undefined;
  if (m[2] === 'config.ts') return 'big-screen-config';
  if (m[2] === 'page.tsx') return hasConfigBeside ? 'big-screen-page' : 'screen-page';
  return undefined;
}
