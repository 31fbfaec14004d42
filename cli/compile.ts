import {
  collectNormalized,
  isWarning,
  type NormalizeResult,
  normalizeDefinition,
  outlineOf,
  type PageModel,
  type PageOutline,
  type Problem,
  parseJsonFile,
  setSha256,
  sortByKeys,
} from '../src/model/index.js';
import { type EmittedModule, emitPage, emitRoutes, type RouteEntry } from './emit/modules.js';
import { CliError } from './errors.js';
import { sha } from './generate-cache.js';
import { loadTemplates, type Templates } from './templates.js';

// Node's native sha256 gives the definitions' content hashes the same digests, several times faster.
setSha256(sha);

/**
 * definitions → generated files, in memory. No I/O: the CLI reads the sources and writes (or
 * compares) the result. The same inputs always give the same bytes.
 */
export interface DefinitionSource {
  kind: 'view' | 'screen';
  /** Project-relative path, e.g. definitions/views/12-stock-in.json */
  file: string;
  /** Relative to the definitions folder, e.g. views/12-stock-in.json */
  rel: string;
  text: string;
  /** The content hash of `text` (sourceHashOf its JSON), when its reader has it; read after `text`. */
  sourceHash?: string | undefined;
}

export interface CompileResult<P extends PageOutline = PageOutline> {
  /**
   * Path relative to generated/ → text. Empty when any definition has an error, and when onFile was
   * given (the texts went there, and are not held twice).
   */
  files: Map<string, string>;
  /** Path relative to generated/ → the template file that printed it. */
  origins: Map<string, string>;
  problems: Problem[];
  skipped: { file: string; id: number | undefined; reason: string }[];
  /**
   * The pages, in the order of the definitions: their models, or only their outlines when onFile
   * was given (a compile of 1,000 views would otherwise hold every model to its end).
   */
  pages: P[];
}

/** Output folder of a definition: its file name without .json, made safe for a path. */
export function outputDir(source: Pick<DefinitionSource, 'rel'>): string {
  const [folder, ...rest] = source.rel.replace(/\.json$/i, '').split('/');
  return [folder, rest.join('-').replace(/[^A-Za-z0-9._-]/g, '-')].join('/');
}

/**
 * Two definition files whose names map to the same output folder (`12 stock-in.json` and
 * `12-stock-in.json`) would overwrite each other's pages: each is a problem naming the other. Folder
 * names are compared without letter case: `17-Vehicle` and `17-vehicle` are one folder in a checkout
 * on macOS or Windows.
 */
export function sharedOutputDirs(sources: readonly Pick<DefinitionSource, 'file' | 'rel'>[]): Problem[] {
  const byDir = new Map<string, { file: string; dir: string }[]>();
  for (const s of sources) {
    const dir = outputDir(s);
    // Output folder names are ASCII (outputDir), so lower case is what a case-insensitive file system compares.
    const key = dir.toLowerCase();
    const same = byDir.get(key);
    if (same) same.push({ file: s.file, dir });
    else byDir.set(key, [{ file: s.file, dir }]);
  }
  const problems: Problem[] = [];
  for (const group of byDir.values()) {
    if (group.length < 2) continue;
    for (const { file, dir } of group) {
      const others = group.filter((o) => o.file !== file);
      const caseOnly = others.some((o) => o.dir !== dir);
      const named = others.map((o) => (o.dir === dir ? o.file : `${o.file} (generated/${o.dir}/)`));
      problems.push({
        code: 'E_DUPLICATE',
        file,
        pointer: '',
        message:
          `its pages would go to generated/${dir}/, as those of ${named.join(' and ')}` +
          (caseOnly ? ': folder names differing only in letter case are one folder on macOS and Windows' : ''),
        hint: 'rename one of the files: names differing only in letter case, or in characters outside A-Z a-z 0-9 . _ -, map to one folder',
      });
    }
  }
  return problems;
}

/**
 * A failure while compiling one definition, named by its file. A RangeError (a text longer than
 * JavaScript holds, a nesting deeper than its stack) comes of the definition's size, and is a
 * problem of its file; anything else is thrown again with the file in its message.
 */
function compileFailure(file: string, e: unknown): Problem {
  if (e instanceof RangeError)
    return {
      code: 'E_TOO_LARGE',
      file,
      pointer: '',
      message: `the definition is too large or too deeply nested to compile (${e.message})`,
      hint: 'shorten its texts or flatten its values',
    };
  if (e instanceof CliError) throw new CliError(`${file}: ${e.message}`, e.exitCode, e.hint, e.problems);
  const named = new Error(`while compiling ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  // The stack of the failure itself, which is where a fault is.
  const frames = e instanceof Error ? e.stack?.indexOf('\n    at ') : undefined;
  if (frames !== undefined && frames >= 0) named.stack = `${named.name}: ${named.message}${(e as Error).stack?.slice(frames)}`;
  throw named;
}

export interface CompileOptions {
  /** Called as pages are emitted: `done` of `total`. */
  onPage?(done: number, total: number): void;
  /**
   * Called with each file as soon as it is emitted (in emit order), only when no definition has an
   * error. Given it, the result's `files` is empty: a compile of 1,000 views would otherwise hold some
   * 25 MB of texts to the end, each one copied by the collector and paid for in fresh pages.
   */
  onFile?(path: string, text: string): void;
  /** The project's template overrides (absolute path); templates it lacks come from the defaults. */
  templatesDir?: string;
  /** How a template's path is shown in messages. */
  showPath?(absolute: string): string;
}

export function compile(
  sources: readonly DefinitionSource[],
  routesSource?: string,
  options?: Omit<CompileOptions, 'onFile'>,
): CompileResult<PageModel>;
export function compile(sources: readonly DefinitionSource[], routesSource: string, options: CompileOptions): CompileResult;
export function compile(sources: readonly DefinitionSource[], routesSource = 'definitions/', options: CompileOptions = {}): CompileResult {
  return runSteps(compileSteps(sources, routesSource, options));
}

/** Runs a compile's steps to the end, at once. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Why an interruptible compile stopped before its end: its caller was interrupted (a signal). */
export class CompileInterrupted extends Error {
  constructor() {
    super('the compile was interrupted');
    this.name = 'CompileInterrupted';
  }
}

/**
 * How long an interruptible compile runs before it lets the event loop turn (where a signal's handler
 * runs): short enough that Ctrl-C is answered at once, long enough that the turns cost nothing.
 */
export const COMPILE_SLICE_MS = 20;

/**
 * Runs a compile's steps, letting the event loop turn every COMPILE_SLICE_MS between definitions;
 * after each turn, stops with CompileInterrupted when `interrupted()` says so. The result is the one
 * the steps give when run at once.
 */
export async function runInterruptibly<T>(steps: Generator<void, T>, interrupted: () => boolean): Promise<T> {
  let since = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - since < COMPILE_SLICE_MS) continue;
    await new Promise((resolve) => setImmediate(resolve));
    if (interrupted()) {
      steps.return(undefined as T);
      throw new CompileInterrupted();
    }
    since = performance.now();
  }
}

/** compile() that lets a signal's handler run between definitions, and stops when `interrupted()` says so. */
export function compileInterruptibly(
  sources: readonly DefinitionSource[],
  routesSource: string,
  options: CompileOptions,
  interrupted: () => boolean,
): Promise<CompileResult> {
  return runInterruptibly(compileSteps(sources, routesSource, options), interrupted);
}

/** compile() as steps: one after each definition, the result at the end. */
function* compileSteps(
  sources: readonly DefinitionSource[],
  routesSource: string,
  options: CompileOptions,
): Generator<void, CompileResult> {
  const problems: Problem[] = [...sharedOutputDirs(sources)];
  const dirs = new Map<string, string>();
  // Each definition is parsed, normalised and emitted before the next is read, so that no more than
  // one definition's JSON is held at a time (holding them all made every collection copy them).
  // A page is emitted as soon as it is normalised, while no definition so far has an error, so that
  // the caller can write it while the rest compiles; the result holds files only when no definition
  // at all has an error.
  let failed = problems.some((p) => !isWarning(p));
  let templates: Templates | undefined;
  /** Each emitted file's path and template, and its text unless onFile took it. */
  const modules: { path: string; template: EmittedModule['template']; text?: string }[] = [];
  const hold = (m: EmittedModule) => (options.onFile ? { path: m.path, template: m.template } : m);
  const normalised: string[] = [];
  /** Each result, its page only outlined once its files went to onFile. */
  const results: (Omit<NormalizeResult, 'page'> & { page?: PageOutline })[] = [];
  let emitted = 0;
  for (const s of sources) {
    // A step before each definition: an interruptible run may stop here, between two definitions.
    yield;
    const text = s.text;
    let r: NormalizeResult;
    try {
      const parsed = parseJsonFile(text, s.file);
      if (parsed.problems.length) {
        problems.push(...parsed.problems);
        if (parsed.problems.some((p) => !isWarning(p))) failed = true;
        continue;
      }
      r = normalizeDefinition({ kind: s.kind, file: s.file, json: parsed.json, hash: s.sourceHash });
    } catch (e) {
      problems.push(compileFailure(s.file, e));
      failed = true;
      continue;
    }
    dirs.set(s.file, outputDir(s));
    normalised.push(s.file);
    results.push(r);
    if (failed || r.problems.some((p) => !isWarning(p))) {
      failed = true;
      continue;
    }
    if (!r.page) continue;
    templates ??= loadTemplates(options.templatesDir, options.showPath);
    let files: EmittedModule[];
    try {
      files = emitPage(r.page, dirs.get(s.file) as string, templates);
    } catch (e) {
      problems.push(compileFailure(s.file, e));
      failed = true;
      continue;
    }
    for (const m of files) {
      options.onFile?.(m.path, m.text);
      modules.push(hold(m));
    }
    // Kept to the end, a page model is copied by every collection until it is old: only what the
    // checks across definitions and routes.ts read of it is kept.
    if (options.onFile) results[results.length - 1] = { ...r, page: outlineOf(r.page) };
    options.onPage?.(++emitted, sources.length);
  }
  const set = collectNormalized(normalised, results);
  problems.push(...set.problems);
  const result: CompileResult = { files: new Map(), origins: new Map(), problems, skipped: set.skipped, pages: set.pages };
  if (problems.some((p) => !isWarning(p))) return result;
  templates ??= loadTemplates(options.templatesDir, options.showPath);

  const ordered = sortByKeys(
    set.pages,
    (p) => (p.kind === 'list' ? 0 : 1),
    (p) => (p.kind === 'list' ? p.viewId : p.screenId),
  );
  const routes: RouteEntry[] = ordered.map((page) => ({ page, module: `${dirs.get(page.source.file) as string}/page` }));
  const routesModule = emitRoutes(routes, routesSource, templates);
  options.onFile?.(routesModule.path, routesModule.text);
  modules.push(hold(routesModule));
  for (const m of sortByKeys(modules, (m) => m.path)) {
    if (m.text !== undefined) result.files.set(m.path, m.text);
    result.origins.set(m.path, templates.fileOf(m.template));
  }
  return result;
}

/** What one definition gives: the problems of its JSON text, or its normalised result and, when it had no error, its emitted files. */
export interface DefinitionOutcome {
  parseProblems: Problem[];
  result?: NormalizeResult;
  /** Path and template of each emitted file (the texts went to onFile). */
  modules?: { path: string; template: EmittedModule['template'] }[];
}

/**
 * Parses, normalises and emits one definition, as compile() does: its files go to `onFile`, unless
 * it has an error. A thread of a compile on several threads calls this for its share.
 */
export function compileOne(
  source: DefinitionSource,
  dir: string,
  templates: () => Templates,
  onFile?: (path: string, text: string) => void,
): DefinitionOutcome {
  const text = source.text;
  let result: NormalizeResult;
  try {
    const parsed = parseJsonFile(text, source.file);
    if (parsed.problems.length) return { parseProblems: parsed.problems };
    result = normalizeDefinition({ kind: source.kind, file: source.file, json: parsed.json, hash: source.sourceHash });
  } catch (e) {
    return { parseProblems: [compileFailure(source.file, e)] };
  }
  if (!result.page || result.problems.some((p) => !isWarning(p))) return { parseProblems: [], result };
  const loaded = templates();
  let files: EmittedModule[];
  try {
    files = emitPage(result.page, dir, loaded);
  } catch (e) {
    return { parseProblems: [compileFailure(source.file, e)], result };
  }
  for (const m of files) onFile?.(m.path, m.text);
  return { parseProblems: [], result, modules: files.map((m) => ({ path: m.path, template: m.template })) };
}

/**
 * The outcomes of every definition, in the order of `sources`, gathered as compile() gathers them:
 * the same problems in the same order, the same pages, skipped definitions and routes. `files`
 * holds no texts (they went to onFile); origins are complete.
 */
export function finishCompile(
  sources: readonly DefinitionSource[],
  outcomes: readonly DefinitionOutcome[],
  routesSource: string,
  options: CompileOptions,
): Omit<CompileResult, 'files'> {
  const problems: Problem[] = [...sharedOutputDirs(sources)];
  for (const o of outcomes) problems.push(...o.parseProblems);
  const normalised = outcomes.flatMap((o, i) => (o.result ? [{ file: (sources[i] as DefinitionSource).file, result: o.result }] : []));
  const set = collectNormalized(
    normalised.map((n) => n.file),
    normalised.map((n) => n.result),
  );
  problems.push(...set.problems);
  const result = { origins: new Map<string, string>(), problems, skipped: set.skipped, pages: set.pages };
  if (problems.some((p) => !isWarning(p))) return result;
  const templates = loadTemplates(options.templatesDir, options.showPath);
  const dirs = new Map(sources.map((s) => [s.file, outputDir(s)]));
  const ordered = sortByKeys(
    set.pages,
    (p) => (p.kind === 'list' ? 0 : 1),
    (p) => (p.kind === 'list' ? p.viewId : p.screenId),
  );
  const routesModule = emitRoutes(
    ordered.map((page) => ({ page, module: `${dirs.get(page.source.file) as string}/page` })),
    routesSource,
    templates,
  );
  options.onFile?.(routesModule.path, routesModule.text);
  const modules = [...outcomes.flatMap((o) => o.modules ?? []), routesModule];
  for (const m of sortByKeys(modules, (m) => m.path)) result.origins.set(m.path, templates.fileOf(m.template));
  return result;
}
