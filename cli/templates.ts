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

/** The escaping helpers, each of one value. */
const HELPER_FUNCTIONS: Record<(typeof HELPERS)[number], (v: unknown) => Escaped> = {
  literal: (v) => {
    const x = raw(v);
    if (typeof x === 'string') return new Escaped(stringLiteral(x));
    if (typeof x === 'number' && Number.isFinite(x)) return new Escaped(String(x));
    throw helperError('literal', `expected a text or a number, got ${typeof x}`);
  },
  comment: (v) => {
    const x = raw(v);
    if (typeof x !== 'string' && typeof x !== 'number') throw helperError('comment', `expected a text, got ${typeof x}`);
    return new Escaped(commentText(String(x)));
  },
  identifier: (v) => {
    const x = raw(v);
    if (typeof x !== 'string' || !IDENTIFIER.test(x)) throw helperError('identifier', `not a TypeScript identifier: ${JSON.stringify(x)}`);
    return new Escaped(x);
  },
  braces: (v) => {
    if (v instanceof DefinitionValue) throw new UnsafePlacement(v.name);
    return new Escaped(`{${String(v)}}`);
  },
};

function createEnv(): typeof Handlebars {
  const hb = Handlebars.create();
  // Handlebars calls a helper with its options after the value: each is given the value only.
  for (const name of HELPERS) hb.registerHelper(name, (v: unknown) => HELPER_FUNCTIONS[name](v));
  return hb;
}

// ----- straight-line templates -----

/** A piece of a straight-line template: text, or what a variable or a helper call places. */
type Piece = string | ((context: Record<string, unknown>) => unknown);

/** Thrown by a piece whose placing Handlebars must do: the template is then rendered by Handlebars. */
class NotStraight extends Error {}

/** Names Handlebars takes for a helper before a variable: its own helpers and the escaping ones. */
const HELPER_NAMES: ReadonlySet<string> = new Set([...Object.keys(Handlebars.helpers), ...HELPERS]);

/** `x` alone (not `this.x`, `../x`, `@x`, `x.y` or a helper's name): its name. */
function plainVariable(node: Node): string | undefined {
  if (node.type !== 'PathExpression' || node.data || node.depth !== 0 || node.parts.length !== 1) return undefined;
  const name = node.parts[0] as string;
  return node.original === name && !HELPER_NAMES.has(name) ? name : undefined;
}

/** What a variable holds, when the context has it as its own. */
function variableOf(context: Record<string, unknown>, name: string): unknown {
  if (!Object.hasOwn(context, name)) throw new NotStraight();
  const v = context[name];
  if (typeof v === 'function') throw new NotStraight();
  return v;
}

/** `helper x` or `helper (inner x)`, as a piece. */
function helperCall(node: Node): Piece | undefined {
  const helper = HELPER_FUNCTIONS[node.path?.original as (typeof HELPERS)[number]];
  if (!helper || node.path.type !== 'PathExpression' || node.hash || node.params.length !== 1) return undefined;
  const param = node.params[0] as Node;
  if (param.type === 'SubExpression') {
    const inner = helperCall(param);
    return inner === undefined || typeof inner === 'string' ? undefined : (c) => helper(inner(c));
  }
  const name = plainVariable(param);
  return name === undefined ? undefined : (c) => helper(variableOf(c, name));
}

/**
 * A template made only of text, variables, the escaping helpers and partials of the same kind, as a
 * list of pieces: undefined for anything else (blocks, lists, an indented partial), which
 * Handlebars renders. Handlebars' own parse gives the text with its whitespace control applied, so
 * both place the same characters; joining pieces costs a fraction of running Handlebars' program.
 */
function straightLine(source: string, partials: ReadonlyMap<string, string>, depth = 0): Piece[] | undefined {
  if (depth > 4) return undefined;
  const pieces: Piece[] = [];
  for (const node of (Handlebars.parse(source) as unknown as Node).body as Node[]) {
    if (node.type === 'ContentStatement') {
      if (node.value) pieces.push(node.value as string);
    } else if (node.type === 'CommentStatement') {
      // A comment places nothing.
    } else if (node.type === 'MustacheStatement') {
      const name = node.params.length === 0 && !node.hash ? plainVariable(node.path) : undefined;
      const piece = name !== undefined ? (c: Record<string, unknown>) => variableOf(c, name) : helperCall(node);
      if (piece === undefined) return undefined;
      pieces.push(piece);
    } else if (node.type === 'PartialStatement') {
      const partial = partials.get(node.name?.original);
      if (partial === undefined || node.name.type !== 'PathExpression' || node.params.length || node.hash || node.indent) return undefined;
      const inner = straightLine(partial, partials, depth + 1);
      if (inner === undefined) return undefined;
      pieces.push(...inner);
    } else return undefined;
  }
  return pieces;
}

/** Renders a straight-line template; NotStraight, or any failure, when Handlebars must render it. */
function renderPieces(pieces: readonly Piece[], context: Record<string, unknown>): string {
  let out = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') out += piece;
    else {
      const v = piece(context);
      // As Handlebars appends: nothing for null and undefined, the rest as `+` makes it text.
      if (v !== null && v !== undefined) out += v;
    }
  }
  return out;
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
  /** Whether a template is rendered by joining its pieces, without Handlebars. */
  straight(name: TemplateName): boolean;
}

/** Shown in messages: relative to the project when inside it. */
type ShowPath = (absolute: string) => string;

/**
 * Loads, checks and compiles the templates. Any problem in any template is a CliError listing each
 * as `file:line: message`. A straight-line template is rendered by joining its pieces, the others
 * by Handlebars (`handlebarsOnly`: all of them, to compare the two).
 */
export function loadTemplates(templatesDir?: string, show: ShowPath = (p) => p, options: { handlebarsOnly?: boolean } = {}): Templates {
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
  const partials = new Map(PARTIALS.map((name) => [name as string, (byName.get(name) as TemplateSource).text]));
  const straight = new Map<TemplateName, Piece[]>();
  for (const s of sources) {
    if (PARTIALS.includes(s.name)) continue;
    const pieces = options.handlebarsOnly ? undefined : straightLine(s.text, partials);
    if (pieces) straight.set(s.name, pieces);
    compiled.set(
      s.name,
      hb.compile(s.text, { noEscape: true, strict: true, knownHelpers: { literal: true, comment: true, identifier: true, braces: true } }),
    );
  }
  return {
    fileOf: (name) => (byName.get(name) as TemplateSource).file,
    straight: (name) => straight.has(name),
    render(name, vars) {
      const kinds = TEMPLATE_VARS[name] as Record<string, VarKind>;
      const context: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(vars as Record<string, unknown>))
        context[k] = kinds[k] === 'text' || kinds[k] === 'identifier' ? new DefinitionValue(String(v), k) : v;
      const template = compiled.get(name);
      if (!template) throw new Error(`no template ${name}`);
      const pieces = straight.get(name);
      if (pieces)
        try {
          return renderPieces(pieces, context);
        } catch {
          // Handlebars renders it again: its answer, or its error with the template's line.
        }
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
