import { isUndesigned, sourceHashOf } from './canonical.js';
import { isRecord } from './coerce.js';
import { normalizeScreenTemplate } from './normalize/screens.js';
import { Sink } from './normalize/sink.js';
import { normalizeViewTemplate } from './normalize/views.js';
import { parseScreen, parseView } from './parse.js';
import { type Problem, pointerOf } from './problems.js';
import type { PageModel, PageOutline, SourceInfo } from './types.js';
import type { WireScreen, WireView } from './wire.js';

/**
 * Definitions (as pulled, decoded) → page models. Each rule is a small named function (field rules,
 * fields and columns, views, buttons and screens each in their own module under normalize/); the
 * problems they find are collected with their JSON pointers, and nothing is thrown.
 */

export {
  dataTypeOf,
  fieldKind,
  GENERAL_UPLOAD_TYPES,
  IMAGE_UPLOAD_TYPES,
  maxLengthOf,
  showOf,
  stepOf,
  TEXT_MAX_LENGTH,
  TEXTAREA_MAX_LENGTH,
  timeFormatOf,
} from './normalize/field-rules.js';
export { normalizeColumn, normalizeField, searchKindOf } from './normalize/fields.js';
export { normalizeScreenTemplate, normalizeViewTemplate, pointerOf, Sink };

export type DefinitionKind = 'view' | 'screen';

export interface DefinitionInput {
  kind: DefinitionKind;
  /** Path relative to the project root, used in problems and banners. */
  file: string;
  json: unknown;
  /** sourceHashOf(json), when the caller has it already (computed on another thread, say). */
  hash?: string;
}

export interface NormalizeResult {
  page?: PageModel;
  /** Created but not designed yet: reported, never an error. */
  skipped?: { id: number | undefined; reason: string };
  problems: Problem[];
}

function sourceOf(file: string, json: unknown, status: number | undefined, hash: string | undefined): SourceInfo {
  return { file, hash: hash ?? sourceHashOf(json), status: status ?? 0 };
}

/** One definition file's JSON → its page model, or the reason it is skipped, and its problems. */
export function normalizeDefinition(input: DefinitionInput): NormalizeResult {
  const sink = new Sink(input.file);
  if (!isRecord(input.json)) {
    sink.add('E_TYPE', '', 'a definition file holds one JSON object');
    return { problems: sink.problems };
  }
  const parsed = input.kind === 'view' ? parseView(input.json, input.file) : parseScreen(input.json, input.file);
  // A value the parser dropped is reported once: what is missing at or below it follows from that.
  const derived = (pointer: string) => [...parsed.dropped].some((d) => pointer === d || pointer.startsWith(`${d}/`));
  const done = (r: Omit<NormalizeResult, 'problems'>): NormalizeResult => ({
    ...r,
    problems: [...parsed.problems, ...sink.problems.filter((p) => !derived(p.pointer))],
  });
  const def = parsed.value;
  if (!def) return done({});
  if (def.id === undefined) {
    sink.add('E_REQUIRED', '/id', `a ${input.kind} definition needs an id`);
    return done({});
  }
  if (isUndesigned(input.json)) return done({ skipped: { id: def.id, reason: 'not designed yet (disTemplate is empty)' } });
  const source = sourceOf(input.file, input.json, def.status, input.hash);
  let page: PageModel | undefined;
  if (input.kind === 'view') {
    const view = def as WireView;
    page = view.disTemplate ? normalizeViewTemplate(view, view.disTemplate, source, sink) : undefined;
  } else {
    const screen = def as WireScreen;
    page = screen.disTemplate ? normalizeScreenTemplate(screen, screen.disTemplate, source, sink) : undefined;
  }
  return done(page ? { page } : {});
}

/** A page's outline, holding nothing else of the page. */
export function outlineOf(page: PageOutline): PageOutline {
  const { path, title, source } = page;
  switch (page.kind) {
    case 'list':
      return { kind: page.kind, viewId: page.viewId, componentName: page.componentName, path, title, source };
    case 'form':
      return { kind: page.kind, screenId: page.screenId, formView: page.formView, path, title, source };
    case 'container':
      return { kind: page.kind, screenId: page.screenId, views: page.views, path, title, source };
    default:
      return { kind: page.kind, screenId: page.screenId, path, title, source };
  }
}

export interface NormalizedSet<P extends PageOutline = PageModel> {
  pages: P[];
  skipped: { file: string; id: number | undefined; reason: string }[];
  problems: Problem[];
}

/**
 * Every definition, then the checks across files: duplicate ids and componentNames, screens naming
 * missing views. `each` sees every definition's result as soon as it is known, before the checks
 * across definitions, so that a caller can start on its page early.
 */
export function normalizeAll(
  inputs: readonly DefinitionInput[],
  each?: (result: NormalizeResult, input: DefinitionInput) => void,
): NormalizedSet {
  const results: NormalizeResult[] = [];
  for (const input of inputs) {
    const r = normalizeDefinition(input);
    each?.(r, input);
    results.push(r);
  }
  return collectNormalized(
    inputs.map((input) => input.file),
    results,
  );
}

/**
 * The results of normalizeDefinition for every definition (in the order of `files`, their files),
 * gathered into the set, with the checks across files added: what normalizeAll returns, for a
 * caller that normalised the definitions itself (on several threads, say).
 */
export function collectNormalized<P extends PageOutline = PageModel>(
  files: readonly string[],
  results: readonly (Omit<NormalizeResult, 'page'> & { page?: P })[],
): NormalizedSet<P> {
  const pages: P[] = [];
  const skipped: NormalizedSet['skipped'] = [];
  const problems: Problem[] = [];
  results.forEach((r, i) => {
    problems.push(...r.problems);
    if (r.page) pages.push(r.page);
    if (r.skipped) skipped.push({ file: files[i] as string, ...r.skipped });
  });
  const byId = new Map<string, P>();
  for (const page of pages) {
    const key = page.kind === 'list' ? `view:${page.viewId}` : `screen:${page.screenId}`;
    const first = byId.get(key);
    if (first)
      problems.push({
        code: 'E_DUPLICATE',
        file: page.source.file,
        pointer: '/id',
        message: `${key.replace(':', ' ')} is also defined in ${first.source.file}`,
      });
    else byId.set(key, page);
  }
  problems.push(...sharedComponentNames(pages));
  const viewIds = new Set(pages.flatMap((p) => (p.kind === 'list' ? [p.viewId] : [])));
  const skippedIds = new Set(skipped.map((s) => s.id));
  for (const page of pages) {
    const refs =
      page.kind === 'container'
        ? page.views.map((v) => ({ v, pointer: '/disTemplate/baseView' }))
        : page.kind === 'form'
          ? [{ v: page.formView, pointer: '/disTemplate/formView' }]
          : [];
    for (const { v, pointer } of refs) {
      if (!viewIds.has(v))
        problems.push({
          code: 'W_REFERENCE',
          file: page.source.file,
          pointer,
          message: `view ${v} is not among the definitions${skippedIds.has(v) ? ' (it is not designed yet)' : ''}; the page renders it at run time`,
        });
    }
  }
  return { pages, skipped, problems };
}

/**
 * A view's componentName is its permission prefix (`truck:list`, `truck:add`, …): two views with the
 * same one would answer to the same permissions, so a role granted one page would hold the other's.
 * Each is a problem naming the other files, as the server refuses to publish a componentName whose
 * permissions another menu carries.
 */
function sharedComponentNames(pages: readonly PageOutline[]): Problem[] {
  const byName = new Map<string, string[]>();
  for (const page of pages) {
    if (page.kind !== 'list') continue;
    const files = byName.get(page.componentName);
    if (files) files.push(page.source.file);
    else byName.set(page.componentName, [page.source.file]);
  }
  const problems: Problem[] = [];
  for (const [name, files] of byName) {
    if (files.length < 2) continue;
    for (const file of files)
      problems.push({
        code: 'E_DUPLICATE',
        file,
        pointer: '/disMenu/componentName',
        message: `componentName ${name} is also that of ${files.filter((f) => f !== file).join(' and ')}, so the pages would answer to the same permissions (${name}:list, ${name}:add, …)`,
        hint: "give each view its own componentName; it is the view's permission prefix, and the server refuses one whose permissions another menu carries",
      });
  }
  return problems;
}
