import { join } from 'node:path';
import type { Command } from 'commander';
import { isUndesigned, type Problem } from '../../src/model/index.js';
import { readBoundedFile, UnreadableFile } from '../bounded-read.js';
import { readDefinitionFiles } from '../definitions-dir.js';
import { CliError, EXIT, errorsOf, printProblems, warningsOf } from '../errors.js';
import type { CommandContext } from '../main.js';
import { loadProject, type Project } from '../project.js';
import {
  type DataViewRef,
  type LocalDefinition,
  localReferenceProblems,
  type PushEntry,
  type PushStep,
  planPush,
  type Resolver,
  readLocal,
  screenForTarget,
  stepsOf,
  viewForTarget,
} from '../push.js';
import {
  addRemoteOptions,
  DATA_VIEWS_FILE,
  fetchAllDefinitions,
  fetchDataViews,
  RemoteClient,
  type RemoteFlags,
  remoteOptions,
} from '../remote.js';
import { compareDefinitions, type DefinitionDiff, printDefinition } from './diff.js';
import { compileSources } from './shared.js';

/**
 * `wastegen push`: the definitions of the folder onto a server. Everything is validated first (the
 * definitions as generate reads them, then every reference against the target); any problem means
 * exit 1 and not one write. Then the calls run one at a time, in an order that never leaves a
 * dangling reference; a failure stops the run and names what was applied and what was not. Running
 * again finishes the job, since matching is by name, not by id.
 */

interface PushFlags extends RemoteFlags {
  cwd?: string;
  config?: string;
  dryRun?: boolean;
  prune?: boolean;
  publish?: boolean;
  json?: boolean;
}

function readDataViews(project: Project): { views?: DataViewRef[]; problems: Problem[] } {
  const path = join(project.definitionsDir, DATA_VIEWS_FILE);
  const file = project.rel(path);
  let text: string;
  try {
    text = readBoundedFile(path).toString('utf8');
  } catch (e) {
    // A FIFO, a device or a file too large is named; one that is not there means no data views.
    if (e instanceof UnreadableFile) return { problems: [{ code: e.code, file, pointer: '', message: e.message, hint: e.hint }] };
    return { problems: [] };
  }
  try {
    const json = JSON.parse(text);
    if (!Array.isArray(json)) throw new Error('not a list');
    const views = json.map((v, i) => {
      if (typeof v?.id !== 'number' || typeof v?.name !== 'string') throw new Error(`entry ${i} needs a numeric id and a name`);
      return { id: v.id as number, name: v.name as string };
    });
    return { views, problems: [] };
  } catch (e) {
    return { problems: [{ code: 'E_JSON', file, pointer: '', message: `expected a list of { id, name }: ${(e as Error).message}` }] };
  }
}

function invalid(problems: Problem[]): CliError {
  return new CliError(
    `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${new Set(problems.map((p) => p.file)).size} file(s); nothing was sent to the server`,
    EXIT.invalid,
    'fix the files under definitions/ (or pull again), then push',
    problems,
  );
}

/** A push entry in `wastegen diff`'s shape: old is what the target holds, new what it will hold. */
function toDiff(e: PushEntry): DefinitionDiff {
  const name = String((e.local?.json.name ?? e.target?.name) || '');
  const id = e.target?.id ?? e.local?.id ?? 0;
  const file = e.local?.file ?? `${e.target?.rel} on the target`;
  if (e.status !== 'changed') return { kind: e.kind, id, name, status: e.status, file };
  return { kind: e.kind, id, name, status: 'changed', file, ...compareDefinitions(e.kind, e.before ?? {}, e.after ?? {}) };
}

const describe = (s: PushStep) => `${s.op} ${s.key}${s.targetId !== undefined ? ` (id ${s.targetId})` : ''}`;

/**
 * What one step sends. Views carry their own JSON; screens are rewritten to the target's ids first.
 * Saves send the version the target had when planned (then the one each save answers), so a save
 * made on the target since is answered 409 instead of overwritten.
 */
async function runStep(
  client: RemoteClient,
  step: PushStep,
  resolve: Resolver,
  ids: Map<string, number>,
  versions: Map<string, number>,
): Promise<number | undefined> {
  const local = step.local as LocalDefinition;
  const id = step.targetId ?? ids.get(step.key);
  const encode = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  const known = versions.get(step.key);
  const save = async (path: string, body: Record<string, unknown>) => {
    const answer = await client.postJson(path, { ...body, ...(known === undefined ? {} : { version: known }) });
    const next = (answer as { version?: unknown } | undefined)?.version;
    if (typeof next === 'number') versions.set(step.key, next);
  };
  const idOf = (body: unknown) => {
    const n = Number((body as { id?: unknown } | undefined)?.id);
    if (!Number.isSafeInteger(n) || n < 1) throw new CliError(`the server created ${step.key} but answered no id`, EXIT.network);
    return n;
  };
  if (step.kind === 'view') {
    const designed = !isUndesigned(local?.json ?? {});
    switch (step.op) {
      case 'create': {
        // A view not on the target yet (itself, or one picking from it) is named by its source id until
        // it is created; the view is then saved again with the new ids.
        let pending = false;
        const json = viewForTarget(local, resolve, (sourceId) => {
          pending = true;
          return sourceId;
        });
        const created = idOf(
          await client.postJson('/api/generation/add', {
            name: json.name,
            status: 0,
            disMenu: encode(json.disMenu),
            ...(designed ? { disTemplate: encode(json.disTemplate) } : {}),
          }),
        );
        if (pending) {
          ids.set(step.key, created);
          // Views created after this one stay at their source ids until the step that updates it again.
          const named = viewForTarget(local, resolve, (sourceId) => sourceId);
          await client.postJson('/api/generation/update', {
            id: created,
            name: named.name,
            disMenu: encode(named.disMenu),
            disTemplate: encode(named.disTemplate),
          });
        }
        return created;
      }
      case 'update': {
        const json = viewForTarget(local, resolve);
        await save('/api/generation/update', {
          id,
          name: json.name,
          disMenu: encode(json.disMenu),
          ...(designed ? { disTemplate: encode(json.disTemplate) } : {}),
        });
        return id;
      }
      case 'publish':
        await client.postJson('/api/generation/publish', { id });
        return id;
      case 'unpublish':
        await client.postJson('/api/generation/update', { id, name: local.json.name, status: 0 });
        return id;
      case 'delete':
        await client.postJson('/api/generation/delete', { ids: [id] });
        return id;
      default:
        throw new Error(`no ${step.op} for views`);
    }
  }
  const json = step.op === 'delete' ? {} : screenForTarget(local, id, resolve);
  switch (step.op) {
    case 'create': {
      const created = idOf(
        await client.postJson('/api/screen/add', { name: json.name, type: json.type, status: 0, disMenu: encode(json.disMenu) }),
      );
      // A vBuild{id} name follows the new id, known only now.
      const named = screenForTarget(local, created, resolve);
      if (JSON.stringify(named.disMenu) !== JSON.stringify(json.disMenu))
        await client.postJson('/api/screen/update', { id: created, name: named.name, type: named.type, disMenu: encode(named.disMenu) });
      return created;
    }
    case 'update':
      await save('/api/screen/update', { id, name: json.name, type: json.type, disMenu: encode(json.disMenu) });
      return id;
    case 'design':
      await save('/api/screen/design', { id, disTemplate: encode(json.disTemplate) });
      return id;
    case 'publish':
    case 'unpublish':
      await save('/api/screen/update', { id, name: json.name, status: step.op === 'publish' ? 1 : 0 });
      return id;
    case 'delete':
      await client.postJson('/api/screen/delete', { ids: [id] });
      return id;
  }
}

export default function register(program: Command, ctx: CommandContext): void {
  const cmd = program
    .command('push')
    .description('Send the definitions in definitions/ to a server: create the missing, update the changed; validated first.')
    .option('--cwd <dir>', 'project directory (default: the current directory)')
    .option('--config <file>', 'config file, relative to the project directory (default: wastegen.config.json)')
    .option('--dry-run', "print what would change, in `wastegen diff`'s format, and write nothing")
    .option('--prune', "also delete the server's definitions that are not in the folder")
    .option('--publish', 'also publish (or unpublish) each definition as its file says (status 1 or 0)')
    .option('--json', 'print the result as one JSON document');
  addRemoteOptions(cmd)
    .addHelpText(
      'after',
      `
Views are matched across servers by disMenu.componentName, screens by name and type, never by id.
Screen references to views and data views (definitions/data-views.json) become the target's ids.
Any problem (an invalid definition, a reference that cannot be resolved) means exit 1 and no write.
A failure part-way stops and lists what was applied and what was not; running again finishes.

Examples:
  $ wastegen push --server https://staging.example.com --token "$TOKEN" --dry-run
  $ wastegen push --server https://waste.example.com --token "$PROD_TOKEN" --publish
  $ wastegen push --prune --json

Exit codes: 0 ok, 1 invalid definitions or references, 2 usage, 3 network, auth or a refused call.`,
    )
    .action(async (flags: PushFlags) => {
      const project = loadProject({ cwd: flags.cwd, config: flags.config, server: flags.server });
      const options = remoteOptions(project, flags);
      const out = (line: string) => {
        if (!flags.json) ctx.output.out(line);
      };

      // 1. Everything that can be checked without the server, before any call.
      const files = readDefinitionFiles(project);
      const compiled = await compileSources(project, files);
      const local = readLocal(files);
      const dataViews = readDataViews(project);
      printProblems(warningsOf(compiled.problems), ctx.output);
      const before = [...errorsOf(compiled.problems), ...local.problems, ...dataViews.problems];
      before.push(...localReferenceProblems(local.defs, dataViews.views));
      if (before.length) throw invalid(before);

      // 2. The target, then every reference against it; still no write.
      const [target, targetDataViews] = await Promise.all([fetchAllDefinitions(options), fetchDataViews(options)]);
      const opts = { publish: flags.publish === true, prune: flags.prune === true };
      const plan = planPush(local.defs, target.definitions, dataViews.views, targetDataViews, opts);
      if (plan.problems.length) throw invalid(plan.problems);
      const steps = stepsOf(plan, opts);
      const diffs = plan.entries.map(toDiff);
      const summary = {
        created: plan.entries.filter((e) => e.status === 'added').length,
        updated: plan.entries.filter((e) => e.status === 'changed').length,
        deleted: plan.entries.filter((e) => e.status === 'removed').length,
        unchanged: plan.unchanged,
      };
      const words = { added: 'created on the server', removed: 'deleted from the server' };
      if (flags.dryRun) {
        if (flags.json)
          ctx.output.out(
            JSON.stringify({ server: options.baseUrl, dryRun: true, summary, definitions: diffs, calls: steps.map(describe) }, null, 2),
          );
        for (const d of diffs) printDefinition(d, out, words);
        out(
          steps.length
            ? `would push to ${options.baseUrl}: ${summary.created} created, ${summary.updated} updated, ${summary.deleted} deleted, ${summary.unchanged} unchanged (${steps.length} calls); nothing was written`
            : `nothing to push: ${summary.unchanged} definitions on ${options.baseUrl} match ${project.rel(project.definitionsDir) || '.'}/`,
        );
        return;
      }

      // 3. The calls, one at a time.
      const client = new RemoteClient(options);
      const ids = new Map<string, number>();
      const versions = new Map<string, number>();
      for (const [key, t] of plan.targetByKey) {
        ids.set(key, t.id);
        if (t.version !== undefined) versions.set(key, t.version);
      }
      const resolver: Resolver = {
        view: (sourceId) => {
          const d = local.defs.find((x) => x.kind === 'view' && x.id === sourceId);
          return d ? ids.get(d.key) : undefined;
        },
        dataView: plan.resolver.dataView,
      };
      const applied: string[] = [];
      for (const [i, step] of steps.entries()) {
        try {
          const id = await runStep(client, step, resolver, ids, versions);
          if (id !== undefined) ids.set(step.key, id);
          applied.push(describe({ ...step, targetId: id }));
          out(`  ${describe({ ...step, targetId: id })}`);
        } catch (e) {
          const rest = steps.slice(i).map(describe);
          const reason = e instanceof Error ? e.message : String(e);
          if (flags.json)
            ctx.output.out(JSON.stringify({ server: options.baseUrl, ok: false, applied, notApplied: rest, error: reason }, null, 2));
          else for (const r of rest) ctx.output.err(`  not applied: ${r}`);
          throw new CliError(
            `push stopped after ${applied.length} of ${steps.length} calls: ${reason}`,
            e instanceof CliError ? e.exitCode : EXIT.network,
            'fix the cause and run the same push again; it picks up where this one stopped',
          );
        }
      }
      if (flags.json) ctx.output.out(JSON.stringify({ server: options.baseUrl, ok: true, summary, definitions: diffs, applied }, null, 2));
      out(
        steps.length
          ? `pushed to ${options.baseUrl}: ${summary.created} created, ${summary.updated} updated, ${summary.deleted} deleted, ${summary.unchanged} unchanged`
          : `nothing to push: ${summary.unchanged} definitions on ${options.baseUrl} match ${project.rel(project.definitionsDir) || '.'}/`,
      );
    });
}
