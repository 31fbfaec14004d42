import { join } from 'node:path';
import type { Command } from 'commander';
import { compareText } from '../../src/model/index.js';
import { readBoundedFile } from '../bounded-read.js';
import {
  applyDirChanges,
  type DefinitionFile,
  type DirChanges,
  definitionFilePath,
  definitionIdOf,
  readDefinitionFiles,
} from '../definitions-dir.js';
import { CliError, EXIT } from '../errors.js';
import type { CommandContext } from '../main.js';
import { startProgress } from '../progress.js';
import { inScope, loadProject, type Project } from '../project.js';
import {
  addRemoteOptions,
  DATA_VIEWS_FILE,
  dataViewsText,
  fetchAllDefinitions,
  fetchDataViews,
  type RemoteDefinition,
  type RemoteFlags,
  remoteOptions,
} from '../remote.js';

/**
 * `wastegen pull`: every view and screen definition from the server into definitions/, decoded and
 * key-sorted. Everything is fetched first; only then is the folder changed, and only where bytes differ.
 */

export interface PullPlan {
  /** All paths relative to definitionsDir. */
  added: string[];
  /** Rewritten in place, or renamed (`from` is the old name) because the slug changed. */
  changed: { rel: string; from?: string }[];
  removed: string[];
  unchanged: string[];
  /** In-scope definitions not designed yet: written, skipped by generate. */
  undesigned: string[];
  /** Server definitions whose file is outside include/exclude: neither written nor removed. */
  outOfScope: string[];
  /** Files in views/ or screens/ not named `{id}-{slug}.json`: left alone. */
  foreign: string[];
  changes: DirChanges;
}

const key = (kind: string, id: number) => `${kind}:${id}`;

/** What pull will do to definitions/, from what the server has and what the folder holds (in scope). */
export function planPull(
  project: Pick<Project, 'include' | 'exclude'>,
  remote: readonly RemoteDefinition[],
  local: readonly DefinitionFile[],
): PullPlan {
  const plan: PullPlan = {
    added: [],
    changed: [],
    removed: [],
    unchanged: [],
    undesigned: [],
    outOfScope: [],
    foreign: [],
    changes: { write: [], remove: [] },
  };
  const localById = new Map<string, DefinitionFile[]>();
  for (const f of local) {
    const parsed = definitionIdOf(f.rel);
    if (!parsed || parsed.kind !== f.kind) {
      plan.foreign.push(f.rel);
      continue;
    }
    const k = key(parsed.kind, parsed.id);
    localById.set(k, [...(localById.get(k) ?? []), f]);
  }
  const onServer = new Set<string>();
  for (const def of remote) {
    const k = key(def.kind, def.id);
    onServer.add(k);
    if (!inScope(project, def.rel)) {
      plan.outOfScope.push(def.rel);
      continue;
    }
    if (def.undesigned) plan.undesigned.push(def.rel);
    const existing = localById.get(k) ?? [];
    const same = existing.find((f) => f.rel === def.rel);
    const stale = existing.filter((f) => f.rel !== def.rel).map((f) => f.rel);
    if (same?.text !== def.text) plan.changes.write.push({ rel: def.rel, text: def.text });
    plan.changes.remove.push(...stale);
    if (!existing.length) plan.added.push(def.rel);
    else if (!same) plan.changed.push({ rel: def.rel, from: stale[0] });
    else if (same.text !== def.text || stale.length) plan.changed.push({ rel: def.rel });
    else plan.unchanged.push(def.rel);
  }
  for (const [k, files] of localById) {
    if (onServer.has(k)) continue;
    for (const f of files) {
      plan.removed.push(f.rel);
      plan.changes.remove.push(f.rel);
    }
  }
  plan.removed.sort(compareText);
  plan.changes.remove.sort(compareText);
  return plan;
}

interface PullFlags extends RemoteFlags {
  cwd?: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
}

export default function register(program: Command, ctx: CommandContext): void {
  const cmd = program
    .command('pull')
    .description('Fetch every view and screen definition from the server into definitions/ (decoded, key-sorted); all or nothing.')
    .option('--cwd <dir>', 'project directory (default: the current directory)')
    .option('--config <file>', 'config file, relative to the project directory (default: wastegen.config.json)')
    .option('--json', 'print the result as JSON (nothing else on stdout)')
    .option('--quiet', 'print nothing but errors');
  addRemoteOptions(cmd)
    .addHelpText(
      'after',
      `
Examples:
  $ wastegen pull --server http://127.0.0.1:8080 --token "$TOKEN"
  $ WASTEGEN_SERVER=https://waste.example.com WASTEGEN_TOKEN=… wastegen pull
  $ wastegen pull --concurrency 16 --json
  $ wastegen pull && wastegen build

Writes definitions/views/{id}-{slug}.json and definitions/screens/{id}-{slug}.json, removes the
files of definitions deleted on the server, and renames files whose slug changed. Also writes
definitions/data-views.json (each data view's id and name), which push uses to find charts' data views. Files outside
"include"/"exclude" of wastegen.config.json are neither written nor removed. If any request fails,
definitions/ is left exactly as it was.

The token: log in to the back office and copy the "token" value (developer tools → Application →
Local Storage); a bare token gets "Bearer " in front of it.

Exit codes: 0 ok, 2 usage (e.g. no server), 3 network or auth (nothing written).`,
    )
    .action(async (flags: PullFlags) => {
      const project = loadProject({ cwd: flags.cwd, config: flags.config, server: flags.server });
      const options = remoteOptions(project, flags);
      const started = performance.now();
      let fetched: Awaited<ReturnType<typeof fetchAllDefinitions>>;
      let dataViews: Awaited<ReturnType<typeof fetchDataViews>> | undefined;
      // A server without the data-view call, or a token without its permission, still gives its views and screens.
      let dataViewsSkipped: string | undefined;
      const progress = startProgress(ctx.output, 'pull', !flags.quiet && !flags.json);
      try {
        [fetched, dataViews] = await Promise.all([
          fetchAllDefinitions(options, (done, total) => progress.update(done, total)),
          fetchDataViews(options).catch((e) => {
            // The index is then left as it is; push names what it cannot resolve.
            if (!(e instanceof CliError)) throw e;
            dataViewsSkipped = `data views were not pulled (${e.message}); ${DATA_VIEWS_FILE} was left as it was`;
            return undefined;
          }),
        ]);
      } catch (e) {
        if (e instanceof CliError) throw new CliError(`${e.message}; nothing was written`, e.exitCode, e.hint, e.problems);
        throw e;
      } finally {
        progress.end();
      }
      const plan = planPull(project, fetched.definitions, readDefinitionFiles(project, { missingOk: true }));
      if (dataViews) {
        const text = dataViewsText(dataViews);
        const path = join(project.definitionsDir, DATA_VIEWS_FILE);
        // Read bounded and never from a FIFO; a file that is not read is replaced, as a changed one is.
        let now: string | undefined;
        try {
          now = readBoundedFile(path).toString('utf8');
        } catch {
          now = undefined;
        }
        if (now !== text) plan.changes.write.push({ rel: DATA_VIEWS_FILE, text });
      }
      applyDirChanges(project, plan.changes);
      const warnings = dataViewsSkipped ? [dataViewsSkipped] : [];
      if (!flags.json) for (const w of warnings) ctx.output.err(`warning: ${w}`);
      if (!flags.quiet || flags.json)
        report(ctx, project, options.baseUrl, fetched, plan, performance.now() - started, flags.json === true, warnings);
      ctx.setExit(EXIT.ok);
    });
}

function report(
  ctx: CommandContext,
  project: Project,
  server: string,
  fetched: { views: number; screens: number },
  plan: PullPlan,
  ms: number,
  json: boolean,
  warnings: readonly string[],
): void {
  const file = (rel: string) => definitionFilePath(project, rel);
  if (json) {
    const doc = {
      server,
      views: fetched.views,
      screens: fetched.screens,
      added: plan.added.map(file),
      changed: plan.changed.map((c) => (c.from ? { file: file(c.rel), renamedFrom: file(c.from) } : { file: file(c.rel) })),
      removed: plan.removed.map(file),
      unchanged: plan.unchanged.length,
      undesigned: plan.undesigned.map(file),
      outOfScope: plan.outOfScope.length,
      warnings,
    };
    ctx.output.out(JSON.stringify(doc, null, 2));
    return;
  }
  const out = (line: string) => ctx.output.out(line);
  out(`pulled ${fetched.views} views and ${fetched.screens} screens from ${server} in ${(ms / 1000).toFixed(1)} s`);
  for (const rel of plan.added) out(`  added    ${file(rel)}`);
  for (const c of plan.changed) out(c.from ? `  renamed  ${file(c.from)} → ${file(c.rel)}` : `  changed  ${file(c.rel)}`);
  for (const rel of plan.removed) out(`  removed  ${file(rel)}`);
  if (plan.undesigned.length)
    out(
      `skipped by generate, not designed yet (disTemplate empty): ${plan.undesigned.map((rel) => rel.replace(/\.json$/, '')).join(', ')}`,
    );
  if (plan.outOfScope.length) out(`${plan.outOfScope.length} outside include/exclude of the config, left alone`);
  if (plan.foreign.length) out(`left alone, not named {id}-{slug}.json: ${plan.foreign.map(file).join(', ')}`);
  out(`${plan.added.length} added, ${plan.changed.length} changed, ${plan.removed.length} removed, ${plan.unchanged.length} unchanged`);
}
