import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { escapePointerToken, type Problem } from '../src/model/problems.js';
import { CliError, EXIT } from './errors.js';

/**
 * The project a command works on: its root, the optional wastegen.config.json, and the settings
 * flags and environment give. Flags beat the environment, which beats the config file.
 */
export const CONFIG_FILE = 'wastegen.config.json';

/** What wastegen.config.json may hold. Validated by hand (no zod), so that a no-op generate starts fast. */
export interface ProjectConfig {
  $schema?: string;
  /** Base URL of the API server, e.g. http://127.0.0.1:8080 */
  server?: string;
  definitionsDir?: string;
  generatedDir?: string;
  /** Globs over definition files relative to definitionsDir, e.g. "views/12-*.json". */
  include?: string[];
  exclude?: string[];
  /** A folder of Handlebars templates (`view-page.hbs`, …) that replace the defaults of the same name. */
  templatesDir?: string;
}

const CONFIG_KEYS = ['$schema', 'server', 'definitionsDir', 'generatedDir', 'templatesDir', 'include', 'exclude'];

function validateConfig(json: unknown, file: string): Problem[] {
  const problems: Problem[] = [];
  const add = (pointer: string, message: string) =>
    problems.push({ code: 'E_CONFIG', file, pointer, message, hint: `keys: ${CONFIG_KEYS.slice(1).join(', ')}` });
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    add('', 'expected a JSON object');
    return problems;
  }
  const o = json as Record<string, unknown>;
  for (const key of Object.keys(o))
    if (!CONFIG_KEYS.includes(key)) add(`/${escapePointerToken(key)}`, `unknown key ${JSON.stringify(key)}`);
  for (const key of ['$schema', 'definitionsDir', 'generatedDir', 'templatesDir'] as const) {
    if (o[key] !== undefined && (typeof o[key] !== 'string' || o[key] === ''))
      add(`/${escapePointerToken(key)}`, 'expected a non-empty text');
  }
  if (o.server !== undefined) {
    let ok = false;
    try {
      ok = typeof o.server === 'string' && /^https?:$/.test(new URL(o.server).protocol);
    } catch {
      ok = false;
    }
    if (!ok) add('/server', `expected an http or https URL, got ${JSON.stringify(o.server)}`);
  }
  for (const key of ['include', 'exclude'] as const) {
    const v = o[key];
    if (v === undefined) continue;
    if (!Array.isArray(v)) add(`/${key}`, `expected a list of globs, got ${JSON.stringify(v)}`);
    else
      for (const [i, g] of v.entries()) {
        if (typeof g !== 'string' || g === '') add(`/${key}/${i}`, 'expected a non-empty glob');
      }
  }
  return problems;
}

export interface Project {
  root: string;
  /** Absolute paths. */
  definitionsDir: string;
  /** Where definitionsDir was set (`wastegen.config.json#/definitionsDir`), when not by default. */
  definitionsDirSetting?: string;
  generatedDir: string;
  /** The project's template overrides, when the config names a folder. */
  templatesDir?: string;
  server?: string;
  include: string[];
  exclude: string[];
  /** Project-relative path with forward slashes, for messages, banners and problems. */
  rel(absolute: string): string;
}

export interface ProjectOptions {
  cwd?: string;
  config?: string;
  server?: string;
  env?: NodeJS.ProcessEnv;
}

export function readConfig(file: string, root = process.cwd()): { config: ProjectConfig; problems: Problem[] } {
  const name = relative(root, file).split(sep).join('/') || CONFIG_FILE;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const problem: Problem = { code: 'E_CONFIG', file: name, pointer: '', message: `not valid JSON: ${(e as Error).message}` };
    return { config: {}, problems: [problem] };
  }
  const problems = validateConfig(json, name);
  return problems.length ? { config: {}, problems } : { config: json as ProjectConfig, problems };
}

export function loadProject(opts: ProjectOptions = {}): Project {
  const env = opts.env ?? process.env;
  const root = resolve(opts.cwd ?? process.cwd());
  // A mistyped --cwd is an error: no command starts a project in a folder that is not there.
  if (opts.cwd !== undefined && !existsSync(root))
    throw new CliError(`--cwd ${opts.cwd}: no such folder`, EXIT.usage, 'create the folder first, or check the path');
  const configPath = opts.config ? resolve(root, opts.config) : join(root, CONFIG_FILE);
  let config: ProjectConfig = {};
  if (opts.config && !existsSync(configPath)) throw new CliError(`config file not found: ${opts.config}`, EXIT.usage);
  if (existsSync(configPath)) {
    const r = readConfig(configPath, root);
    if (r.problems.length) throw new CliError(`${CONFIG_FILE} is invalid`, EXIT.invalid, undefined, r.problems);
    config = r.config;
  }
  if (config.templatesDir) {
    const t = isAbsolute(config.templatesDir) ? config.templatesDir : resolve(root, config.templatesDir);
    if (!existsSync(t))
      throw new CliError(
        `${CONFIG_FILE}#/templatesDir: the folder ${config.templatesDir} does not exist`,
        EXIT.invalid,
        'create it, or remove templatesDir to use the default templates',
      );
  }
  const dir = (d: string | undefined, fallback: string) => (d ? (isAbsolute(d) ? d : resolve(root, d)) : join(root, fallback));
  const configName = relative(root, configPath).split(sep).join('/') || CONFIG_FILE;
  const definitionsDir = dir(config.definitionsDir, 'definitions');
  const generatedDir = dir(config.generatedDir, 'generated');
  const templatesDir = config.templatesDir ? dir(config.templatesDir, 'templates') : undefined;
  const folders = generatedDirProblems(
    { root, generatedDir, definitionsDir, templatesDir, configFile: existsSync(configPath) ? configPath : undefined },
    config,
    configName,
  );
  if (folders.length)
    throw new CliError(
      `${configName} is invalid: generatedDir must be a folder of its own inside the project`,
      EXIT.invalid,
      'generatedDir holds only what generate writes (it removes the pages no definition produces any more); name a folder that holds nothing else, such as "generated"',
      folders,
    );
  return {
    root,
    definitionsDir,
    ...(config.definitionsDir ? { definitionsDirSetting: `${configName}#/definitionsDir` } : {}),
    generatedDir,
    ...(templatesDir ? { templatesDir } : {}),
    server: opts.server ?? env.WASTEGEN_SERVER ?? config.server,
    include: config.include ?? [],
    exclude: config.exclude ?? [],
    rel: (absolute) => relative(root, absolute).split(sep).join('/'),
  };
}

/** A path with symbolic links resolved as far as it exists (the rest appended as it is). */
function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const up = dirname(path);
    return up === path ? path : join(realPath(up), basename(path));
  }
}

/** Whether `inner` is `outer` or lies inside it (both absolute). */
const within = (inner: string, outer: string) => {
  const r = relative(outer, inner);
  return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r));
};

/**
 * generatedDir holds only what generate writes (it removes the pages no definition produces). So it must
 * be a folder inside the project, not the project itself nor a folder that holds it, outside any
 * dot-folder, and apart from the definitions, the templates and the config file. Symbolic links are
 * followed. The problem is put on generatedDir when the config sets it, else on the other key.
 */
function generatedDirProblems(
  dirs: { root: string; generatedDir: string; definitionsDir: string; templatesDir: string | undefined; configFile: string | undefined },
  config: ProjectConfig,
  configName: string,
): Problem[] {
  const root = realPath(dirs.root);
  const gen = realPath(dirs.generatedDir);
  const linked = gen !== join(root, relative(dirs.root, dirs.generatedDir));
  const shown = `${JSON.stringify(config.generatedDir ?? 'generated')}${linked ? ` (a link to ${gen})` : ''}`;
  const problems: Problem[] = [];
  const add = (key: keyof ProjectConfig, message: string) =>
    problems.push({ code: 'E_CONFIG', file: configName, pointer: `/${config.generatedDir ? 'generatedDir' : key}`, message });
  if (gen === root) add('generatedDir', `generatedDir ${shown} is the project root, which holds more than generate writes`);
  else if (within(root, gen)) add('generatedDir', `generatedDir ${shown} holds the project, which holds more than generate writes`);
  else if (!within(gen, root)) add('generatedDir', `generatedDir ${shown} lies outside the project folder; generate writes only inside it`);
  else if (
    relative(root, gen)
      .split(sep)
      .some((part) => part.startsWith('.'))
  )
    add('generatedDir', `generatedDir ${shown} lies in a dot-folder, which generate never writes into`);
  const apart = (key: 'definitionsDir' | 'templatesDir', path: string | undefined, what: string) => {
    if (path === undefined) return;
    const other = realPath(path);
    const named = `${key} ${JSON.stringify(config[key] ?? 'definitions')}`;
    if (other === gen) add(key, `generatedDir ${shown} is also ${named}; generate would write among the ${what}`);
    else if (within(other, gen)) add(key, `generatedDir ${shown} holds ${named}; generate would write among the ${what}`);
    else if (within(gen, other)) add(key, `generatedDir ${shown} lies inside ${named}; generate would write among the ${what}`);
  };
  if (!problems.length) {
    apart('definitionsDir', dirs.definitionsDir, 'definitions');
    apart('templatesDir', dirs.templatesDir, 'templates');
    if (dirs.configFile && within(realPath(dirs.configFile), gen))
      add('generatedDir', `generatedDir ${shown} holds the config file ${configName}`);
  }
  return problems;
}

/** `*` matches within a path segment, `**` across segments, `?` one character. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        re += '.*';
        i++;
        if (glob[i + 1] === '/') i++;
      } else re += '[^/]*';
    } else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Whether a definition file (relative to definitionsDir, e.g. views/12-stock-in.json) is in scope. */
export function inScope(project: Pick<Project, 'include' | 'exclude'>, relPath: string): boolean {
  const matches = (globs: string[]) => globs.some((g) => globToRegExp(g).test(relPath));
  if (project.include.length && !matches(project.include)) return false;
  return !matches(project.exclude);
}
