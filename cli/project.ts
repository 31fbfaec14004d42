import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { issuesToProblems, type Problem } from '../src/model/index.js';
import { CliError, EXIT } from './errors.js';

/**
 * The project a command works on: its root, the optional wastegen.config.json, and the settings
 * flags and environment give. Flags beat the environment, which beats the config file.
 */
export const CONFIG_FILE = 'wastegen.config.json';

const configSchema = z.strictObject({
  $schema: z.string().optional(),
  /** Base URL of the API server, e.g. http://127.0.0.1:8080 */
  server: z.url({ protocol: /^https?$/, error: 'expected an http or https URL' }).optional(),
  definitionsDir: z.string().min(1).optional(),
  generatedDir: z.string().min(1).optional(),
  /** Globs over definition files relative to definitionsDir, e.g. "views/12-*.json". */
  include: z.array(z.string().min(1)).optional(),
  exclude: z.array(z.string().min(1)).optional(),
});

export type ProjectConfig = z.output<typeof configSchema>;

export interface Project {
  root: string;
  /** Absolute paths. */
  definitionsDir: string;
  generatedDir: string;
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

export function readConfig(file: string): { config: ProjectConfig; problems: Problem[] } {
  const name = relative(process.cwd(), file).split(sep).join('/') || CONFIG_FILE;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const problem: Problem = { code: 'E_JSON', file: name, pointer: '', message: `not valid JSON: ${(e as Error).message}` };
    return { config: {}, problems: [problem] };
  }
  const r = configSchema.safeParse(json);
  if (r.success) return { config: r.data, problems: [] };
  const problems = issuesToProblems(r.error.issues, name, json).map((p) => ({
    ...p,
    code: 'E_CONFIG' as const,
    hint: 'keys: server, definitionsDir, generatedDir, include, exclude',
  }));
  return { config: {}, problems };
}

export function loadProject(opts: ProjectOptions = {}): Project {
  const env = opts.env ?? process.env;
  const root = resolve(opts.cwd ?? process.cwd());
  const configPath = opts.config ? resolve(root, opts.config) : join(root, CONFIG_FILE);
  let config: ProjectConfig = {};
  if (opts.config && !existsSync(configPath)) throw new CliError(`config file not found: ${opts.config}`, EXIT.usage);
  if (existsSync(configPath)) {
    const r = readConfig(configPath);
    if (r.problems.length) throw new CliError(`${CONFIG_FILE} is invalid`, EXIT.invalid, undefined, r.problems);
    config = r.config;
  }
  const dir = (d: string | undefined, fallback: string) => (d ? (isAbsolute(d) ? d : resolve(root, d)) : join(root, fallback));
  return {
    root,
    definitionsDir: dir(config.definitionsDir, 'definitions'),
    generatedDir: dir(config.generatedDir, 'generated'),
    server: opts.server ?? env.WASTEGEN_SERVER ?? config.server,
    include: config.include ?? [],
    exclude: config.exclude ?? [],
    rel: (absolute) => relative(root, absolute).split(sep).join('/'),
  };
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
