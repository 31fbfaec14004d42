import {
  canonicalJson,
  compareText,
  isRecord,
  isUndesigned,
  menuComponentName,
  type Problem,
  type ProblemCode,
  readViewIds,
  writeViewIds,
} from '../src/model/index.js';
import type { DefinitionFile, DefinitionKind } from './definitions-dir.js';
import type { RemoteDefinition } from './remote.js';

/**
 * `wastegen push`, without I/O: which definitions of the folder match which of the target server,
 * how their references become the target's ids, and the ordered list of calls that bring the target
 * in line. Views match by disMenu.componentName, screens by name and type; numeric ids never match
 * anything, because they differ between environments.
 */

export interface DataViewRef {
  id: number;
  name: string;
}

/** A definition of the folder, decoded. */
export interface LocalDefinition {
  kind: DefinitionKind;
  /** Project-relative path, for messages. */
  file: string;
  /** The id on the server it was pulled from. */
  id: number;
  key: string;
  json: Record<string, unknown>;
}

export const viewKey = (componentName: string) => `view ${componentName}`;
export const screenKey = (name: string, type: unknown) => `screen type ${String(type)} ${JSON.stringify(name)}`;

function keyOf(kind: DefinitionKind, json: Record<string, unknown>): string | undefined {
  if (kind === 'view') {
    const c = menuComponentName(json.disMenu);
    return c === undefined ? undefined : viewKey(c);
  }
  return typeof json.name === 'string' && json.name.trim() ? screenKey(json.name.trim(), json.type) : undefined;
}

const problem = (file: string, pointer: string, code: ProblemCode, message: string): Problem => ({ file, pointer, code, message });

/** Reads the folder's definitions for push; problems for files that cannot take part. */
export function readLocal(files: readonly DefinitionFile[]): { defs: LocalDefinition[]; problems: Problem[] } {
  const defs: LocalDefinition[] = [];
  const problems: Problem[] = [];
  const seen = new Map<string, string>();
  for (const f of files) {
    let json: unknown;
    try {
      json = JSON.parse(f.text);
    } catch {
      problems.push(problem(f.file, '', 'E_JSON', 'not valid JSON'));
      continue;
    }
    if (!isRecord(json)) {
      problems.push(problem(f.file, '', 'E_TYPE', 'expected a JSON object'));
      continue;
    }
    const id = Number(json.id);
    if (!Number.isSafeInteger(id) || id < 1)
      problems.push(problem(f.file, '/id', 'E_REQUIRED', 'a pushed definition needs the id it was pulled with'));
    const key = keyOf(f.kind, json);
    if (!key) {
      problems.push(
        f.kind === 'view'
          ? problem(
              f.file,
              '/disMenu/componentName',
              'E_REQUIRED',
              'a view is matched across servers by disMenu.componentName, and this one has none',
            )
          : problem(f.file, '/name', 'E_REQUIRED', 'a screen is matched across servers by its name and type, and this one has no name'),
      );
      continue;
    }
    const other = seen.get(key);
    if (other) {
      problems.push(
        problem(
          f.file,
          f.kind === 'view' ? '/disMenu/componentName' : '/name',
          'E_DUPLICATE',
          `${key} is also ${other}; push could not tell them apart`,
        ),
      );
      continue;
    }
    seen.set(key, f.file);
    defs.push({ kind: f.kind, file: f.file, id, key, json });
  }
  return { defs, problems };
}

// ----- references of screens -----

/** A reference from a screen to a view or a data view, by the source server's id, with its pointer. */
interface Reference {
  kind: 'view' | 'dataView';
  pointer: string;
  id: number;
}

/** Every view and data-view reference in a screen's template. */
function referencesOf(template: unknown): Reference[] {
  if (!isRecord(template)) return [];
  const refs: Reference[] = [];
  for (const key of ['baseView', 'formView'] as const) {
    const read = readViewIds(template[key]);
    read?.ids.forEach((id, i) => {
      refs.push({ kind: 'view', pointer: `/disTemplate/${key}${read.form === 'list' ? `/${i}` : ''}`, id });
    });
  }
  const layout = Array.isArray(template.layout) ? template.layout : [];
  layout.forEach((item, i) => {
    const charts = isRecord(item) && Array.isArray(item.chart) ? item.chart : [];
    charts.forEach((chart, j) => {
      const priv = isRecord(chart) && isRecord(chart.configure) && isRecord(chart.configure.private) ? chart.configure.private : undefined;
      const v = priv?.dataViewId;
      if (v === undefined || v === null || v === '') return;
      refs.push({ kind: 'dataView', pointer: `/disTemplate/layout/${i}/chart/${j}/configure/private/dataViewId`, id: Number(v) });
    });
  });
  return refs;
}

/** The template with every reference replaced by `map(ref)`, keeping each value's form (number, text, list). */
function rewriteTemplate(template: unknown, map: (ref: Reference) => number | string): unknown {
  if (!isRecord(template)) return template;
  const out = structuredClone(template) as Record<string, unknown>;
  for (const key of ['baseView', 'formView'] as const) {
    const read = readViewIds(out[key]);
    if (!read) continue;
    out[key] = writeViewIds(
      read.form,
      read.ids.map((id) => map({ kind: 'view', pointer: '', id })),
    );
  }
  const layout = Array.isArray(out.layout) ? out.layout : [];
  for (const item of layout) {
    const charts = isRecord(item) && Array.isArray(item.chart) ? item.chart : [];
    for (const chart of charts) {
      const priv = isRecord(chart) && isRecord(chart.configure) && isRecord(chart.configure.private) ? chart.configure.private : undefined;
      const v = priv?.dataViewId;
      if (!priv || v === undefined || v === null || v === '') continue;
      const mapped = map({ kind: 'dataView', pointer: '', id: Number(v) });
      priv.dataViewId = typeof v === 'string' ? String(mapped) : mapped;
    }
  }
  return out;
}

/** A field's options drawn from another view's records name that view's id in their address. */
const VIEW_OPTIONS = /^(\/api\/general\/allList\/)(\d{1,9})(\/queryLink(?:\?.*)?)$/;

/** Every view a view's template picks options from (`sportData_url`), by the source server's id. */
function viewReferencesOf(template: unknown): Reference[] {
  const refs: Reference[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node))
      node.forEach((x, i) => {
        walk(x, `${pointer}/${i}`);
      });
    else if (isRecord(node))
      for (const [k, v] of Object.entries(node)) {
        const m = k === 'sportData_url' && typeof v === 'string' ? VIEW_OPTIONS.exec(v) : null;
        if (m) refs.push({ kind: 'view', pointer: `${pointer}/${k}`, id: Number(m[2]) });
        else walk(v, `${pointer}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`);
      }
  };
  walk(template, '/disTemplate');
  return refs;
}

/** The template with every view its fields pick from replaced by `map(id)`. */
function rewriteViewTemplate(template: unknown, map: (id: number) => number | string): unknown {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isRecord(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      const m = k === 'sportData_url' && typeof v === 'string' ? VIEW_OPTIONS.exec(v) : null;
      out[k] = m ? `${m[1]}${map(Number(m[2]))}${m[3]}` : walk(v);
    }
    return out;
  };
  return walk(template);
}

/** The source ids of the views a view's template picks from. */
export function viewsPickedBy(local: LocalDefinition): number[] {
  return local.kind === 'view' && !isUndesigned(local.json) ? viewReferencesOf(local.json.disTemplate).map((r) => r.id) : [];
}

/**
 * A view as the target must hold it: the views its fields pick from in the target's ids. One not yet
 * on the target (itself when new, or one created later) keeps `unresolved(id)` until it is.
 */
export function viewForTarget(
  local: LocalDefinition,
  resolve: Resolver,
  unresolved: (id: number) => number | string = (id) => `(new id of view ${id})`,
): Record<string, unknown> {
  if (isUndesigned(local.json)) return local.json;
  return { ...local.json, disTemplate: rewriteViewTemplate(local.json.disTemplate, (id) => resolve.view(id) ?? unresolved(id)) };
}

/** `vBuild{id}` is a screen's usual componentName; it names the screen's own id and follows it. */
function screenMenu(menu: unknown, sourceId: number, targetId: number | undefined): unknown {
  if (!isRecord(menu) || menu.componentName !== `vBuild${sourceId}`) return menu;
  return { ...menu, componentName: targetId === undefined ? '(vBuild + the new id)' : `vBuild${targetId}` };
}

/**
 * Problems of references that cannot be resolved before anything is called: a view id that is no
 * definition of the folder, a data view the folder's data-views.json does not name.
 */
export function localReferenceProblems(defs: readonly LocalDefinition[], dataViews: readonly DataViewRef[] | undefined): Problem[] {
  const viewIds = new Set(defs.filter((d) => d.kind === 'view').map((d) => d.id));
  const problems: Problem[] = [];
  for (const d of defs) {
    const refs = d.kind === 'screen' ? referencesOf(d.json.disTemplate) : isUndesigned(d.json) ? [] : viewReferencesOf(d.json.disTemplate);
    for (const ref of refs) {
      if (!Number.isSafeInteger(ref.id) || ref.id < 1)
        problems.push(problem(d.file, ref.pointer, 'E_REFERENCE', `not an id: ${JSON.stringify(ref.id)}`));
      else if (ref.kind === 'view' && !viewIds.has(ref.id))
        problems.push(
          problem(
            d.file,
            ref.pointer,
            'E_REFERENCE',
            `view ${ref.id} is not among the definitions, so its counterpart on the target cannot be found`,
          ),
        );
      else if (ref.kind === 'dataView' && !dataViews?.some((v) => v.id === ref.id))
        problems.push(
          problem(
            d.file,
            ref.pointer,
            'E_REFERENCE',
            `data view ${ref.id} is not named in data-views.json (run \`wastegen pull\`), so its counterpart on the target cannot be found`,
          ),
        );
    }
  }
  return problems;
}

// ----- the plan -----

export type StepOp = 'create' | 'update' | 'design' | 'publish' | 'unpublish' | 'delete';

export interface PushStep {
  op: StepOp;
  kind: DefinitionKind;
  key: string;
  /** Local file (create, update, design, publish) or the target's definition (delete). */
  file?: string;
  /** The target's id; undefined for a definition created by an earlier step. */
  targetId?: number;
  /** The target's version when planned; a step sends it so that a save made since is not overwritten. */
  targetVersion?: number;
  local?: LocalDefinition;
}

export interface PushEntry {
  kind: DefinitionKind;
  key: string;
  status: 'added' | 'changed' | 'removed';
  local?: LocalDefinition;
  target?: RemoteDefinition;
  /** What the target holds now and what it will hold (the comparable keys only). */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

export interface PushPlan {
  entries: PushEntry[];
  unchanged: number;
  problems: Problem[];
}

export interface PlanOptions {
  publish: boolean;
  prune: boolean;
}

/** The keys push writes; everything else (ids, menuId, times) belongs to the environment. */
function comparable(kind: DefinitionKind, json: Record<string, unknown>, withStatus: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: json.name,
    disMenu: json.disMenu ?? null,
    disTemplate: isUndesigned(json) ? null : json.disTemplate,
  };
  if (kind === 'screen') out.type = json.type;
  if (withStatus) out.status = Number(json.status) === 1 ? 1 : 0;
  return out;
}

export interface Resolver {
  /** Target id of a local view (by its source id), undefined while it is still to be created. */
  view(sourceId: number): number | undefined;
  dataView(sourceId: number): number | undefined;
}

/** A screen as the target must hold it: references and its vBuild name in the target's ids. */
export function screenForTarget(local: LocalDefinition, targetId: number | undefined, resolve: Resolver): Record<string, unknown> {
  const template = isUndesigned(local.json)
    ? local.json.disTemplate
    : rewriteTemplate(local.json.disTemplate, (ref) => {
        const id = ref.kind === 'view' ? resolve.view(ref.id) : resolve.dataView(ref.id);
        return id ?? `(new id of view ${ref.id})`;
      });
  return { ...local.json, disMenu: screenMenu(local.json.disMenu, local.id, targetId), disTemplate: template };
}

export function planPush(
  defs: readonly LocalDefinition[],
  target: readonly RemoteDefinition[],
  localDataViews: readonly DataViewRef[] | undefined,
  targetDataViews: readonly DataViewRef[],
  options: PlanOptions,
): PushPlan & { resolver: Resolver; targetByKey: Map<string, RemoteDefinition> } {
  const problems: Problem[] = [];
  const targetByKey = new Map<string, RemoteDefinition>();
  const duplicates = new Set<string>();
  for (const t of target) {
    const key = keyOf(t.kind, t.json);
    if (!key) continue;
    if (targetByKey.has(key)) duplicates.add(key);
    targetByKey.set(key, t);
  }
  for (const d of defs)
    if (duplicates.has(d.key))
      problems.push(
        problem(
          d.file,
          d.kind === 'view' ? '/disMenu/componentName' : '/name',
          'E_DUPLICATE',
          `the target holds more than one ${d.key}; push cannot tell which one this is`,
        ),
      );

  const localViews = new Map(defs.filter((d) => d.kind === 'view').map((d) => [d.id, d]));
  const dataViewNames = new Map((localDataViews ?? []).map((v) => [v.id, v.name]));
  const targetDataViewIds = new Map<string, number[]>();
  for (const v of targetDataViews) targetDataViewIds.set(v.name, [...(targetDataViewIds.get(v.name) ?? []), v.id]);
  const resolver: Resolver = {
    view: (sourceId) => {
      const local = localViews.get(sourceId);
      return local ? targetByKey.get(local.key)?.id : undefined;
    },
    dataView: (sourceId) => {
      const name = dataViewNames.get(sourceId);
      const ids = name === undefined ? undefined : targetDataViewIds.get(name);
      return ids?.length === 1 ? ids[0] : undefined;
    },
  };
  for (const d of defs) {
    if (d.kind !== 'screen') continue;
    for (const ref of referencesOf(d.json.disTemplate)) {
      if (ref.kind !== 'dataView') continue;
      const name = dataViewNames.get(ref.id);
      const ids = name === undefined ? [] : (targetDataViewIds.get(name) ?? []);
      if (ids.length !== 1)
        problems.push(
          problem(
            d.file,
            ref.pointer,
            'E_REFERENCE',
            ids.length
              ? `the target has ${ids.length} data views named ${JSON.stringify(name)}; push cannot tell which one data view ${ref.id} is`
              : `the target has no data view named ${JSON.stringify(name)} (data view ${ref.id} here)`,
          ),
        );
    }
  }

  const entries: PushEntry[] = [];
  let unchanged = 0;
  for (const d of defs) {
    const t = targetByKey.get(d.key);
    const json = d.kind === 'screen' ? screenForTarget(d, t?.id, resolver) : viewForTarget(d, resolver);
    const after = comparable(d.kind, json, options.publish || !t);
    if (!options.publish && !t) after.status = 0;
    if (!t) {
      entries.push({ kind: d.kind, key: d.key, status: 'added', local: d, after });
      continue;
    }
    const before = comparable(d.kind, t.json, options.publish);
    if (canonicalJson(before) === canonicalJson(after)) unchanged++;
    else entries.push({ kind: d.kind, key: d.key, status: 'changed', local: d, target: t, before, after });
  }
  if (options.prune) {
    const wanted = new Set(defs.map((d) => d.key));
    for (const t of target) {
      const key = keyOf(t.kind, t.json) ?? `${t.kind} ${t.id}`;
      if (!wanted.has(key)) entries.push({ kind: t.kind, key, status: 'removed', target: t });
    }
  }
  entries.sort((a, b) => compareText(a.kind, b.kind) * -1 || compareText(a.key, b.key));
  return { entries, unchanged, problems, resolver, targetByKey };
}

/**
 * The entries with every view created after the new views it picks from (its fields' options name their
 * ids, which the target gives only on creation); otherwise in the plan's order. A view picking from
 * itself, or views picking from each other, are created with the ids they can have and then updated.
 */
function pickedFirst(entries: readonly PushEntry[]): PushEntry[] {
  const added = new Map<number, PushEntry>();
  for (const e of entries) if (e.kind === 'view' && e.status === 'added' && e.local) added.set(e.local.id, e);
  const out: PushEntry[] = [];
  const placed = new Set<PushEntry>();
  const visiting = new Set<PushEntry>();
  const place = (e: PushEntry) => {
    if (placed.has(e) || visiting.has(e)) return;
    visiting.add(e);
    if (e.status === 'added' && e.local)
      for (const id of viewsPickedBy(e.local)) {
        const other = added.get(id);
        if (other && other !== e) place(other);
      }
    visiting.delete(e);
    placed.add(e);
    out.push(e);
  };
  for (const e of entries) place(e);
  return out;
}

/**
 * The calls, in an order that never leaves a dangling reference: views created and updated first
 * (screens name them), then screens, then the deletions, screens before the views they show.
 */
export function stepsOf(plan: PushPlan, options: PlanOptions): PushStep[] {
  const steps: PushStep[] = [];
  const add = (kind: DefinitionKind) => {
    for (const e of kind === 'view' ? pickedFirst(plan.entries) : plan.entries) {
      if (e.kind !== kind || e.status === 'removed' || !e.local) continue;
      const base = { kind, key: e.key, file: e.local.file, local: e.local, targetId: e.target?.id, targetVersion: e.target?.version };
      const designed = !isUndesigned(e.local.json);
      const wantStatus = Number(e.local.json.status) === 1 ? 1 : 0;
      if (e.status === 'added') {
        steps.push({ ...base, op: 'create' });
        if (kind === 'screen' && designed) steps.push({ ...base, op: 'design' });
        if (options.publish && wantStatus === 1) steps.push({ ...base, op: 'publish' });
        continue;
      }
      const before = e.before ?? {};
      const after = e.after ?? {};
      const differs = (k: string) => canonicalJson(before[k]) !== canonicalJson(after[k]);
      if (kind === 'view') {
        if (['name', 'disMenu', 'disTemplate'].some(differs)) steps.push({ ...base, op: 'update' });
      } else {
        if (['name', 'disMenu', 'type'].some(differs)) steps.push({ ...base, op: 'update' });
        if (designed && differs('disTemplate')) steps.push({ ...base, op: 'design' });
      }
      if (options.publish && differs('status')) steps.push({ ...base, op: wantStatus === 1 ? 'publish' : 'unpublish' });
    }
  };
  add('view');
  // A new view picking from a new view created after it (views picking from each other) is saved again
  // once both have their ids.
  const createdAt = new Map<number, number>();
  steps.forEach((st, i) => {
    if (st.kind === 'view' && st.op === 'create' && st.local) createdAt.set(st.local.id, i);
  });
  for (const st of [...steps])
    if (st.kind === 'view' && st.op === 'create' && st.local) {
      const at = createdAt.get(st.local.id) ?? 0;
      if (viewsPickedBy(st.local).some((id) => (createdAt.get(id) ?? -1) > at))
        steps.push({ ...st, op: 'update', targetId: undefined, targetVersion: undefined });
    }
  add('screen');
  for (const kind of ['screen', 'view'] as const)
    for (const e of kind === 'view' ? pickersFirst(plan.entries) : plan.entries)
      if (e.kind === kind && e.status === 'removed' && e.target)
        steps.push({ op: 'delete', kind, key: e.key, file: e.target.rel, targetId: e.target.id });
  return steps;
}

/**
 * The views to delete, each before the views it picks from: the server keeps a view while a waybill's
 * order picker names it. Views picking from each other keep the plan's order.
 */
function pickersFirst(entries: readonly PushEntry[]): PushEntry[] {
  let left = entries.filter((e) => e.kind === 'view' && e.status === 'removed' && e.target);
  const picks = new Map(
    left.map((e) => {
      const json = e.target?.json ?? {};
      const ids = isUndesigned(json) ? [] : viewReferencesOf(json.disTemplate).map((r) => r.id);
      return [e, new Set(ids.filter((id) => id !== e.target?.id))] as const;
    }),
  );
  const out: PushEntry[] = [];
  while (left.length) {
    const picked = new Set(left.flatMap((e) => [...(picks.get(e) ?? [])]));
    const free = left.filter((e) => !picked.has(e.target?.id as number));
    const next = free.length ? free : left;
    out.push(...next);
    left = left.filter((e) => !next.includes(e));
  }
  return out;
}
