import type { Command } from 'commander';
import { canonicalJson, compareText, isRecord, KNOWN_TEMPLATE } from '../../src/model/index.js';
import { type DefinitionFile, type DefinitionKind, definitionFilePath, definitionIdOf, readDefinitionFiles } from '../definitions-dir.js';
import { CliError, EXIT, errorsOf } from '../errors.js';
import type { CommandContext } from '../main.js';
import { inScope, loadProject, type Project } from '../project.js';
import { addRemoteOptions, fetchAllDefinitions, type RemoteDefinition, type RemoteFlags, remoteOptions } from '../remote.js';
import { reportImpact } from './check.js';
import { compileSources } from './shared.js';

/**
 * `wastegen diff`: what changed on the server against definitions/, per definition, without writing
 * anything. Values are compared as canonical JSON, so key order never counts as a change.
 */

/** One changed value; `key` is a dotted path (`configure.min`, `basic.width`, `chart.0.fileName`). */
export interface ValueChange {
  key: string;
  /** Absent when the key is new. */
  old?: unknown;
  /** Absent when the key was removed. */
  new?: unknown;
}

/** Items of a list matched by name (fields, buttons) or by `i` (layout items). */
export interface ItemChanges {
  added: string[];
  removed: string[];
  changed: { name: string; changes: ValueChange[] }[];
}

export interface DefinitionDiff {
  kind: DefinitionKind;
  id: number;
  name: string;
  status: 'added' | 'removed' | 'changed';
  /** Project-relative: the local file, or for an added definition the file pull would write. */
  file: string;
  /** When the slug changed: the file pull would rename it to. */
  renamedTo?: string;
  note?: string;
  /** Keys beside disMenu and disTemplate (name, status, type, menuId, updateTime, …). */
  top?: ValueChange[];
  /** disMenu keys. */
  menu?: ValueChange[];
  /** Views: fields of tableOption and formOption, and btnDIYOption buttons, by name. */
  tableOption?: ItemChanges;
  formOption?: ItemChanges;
  buttons?: ItemChanges;
  /** Views: basicOption, dialogOption and formDividerOption, as `basicOption.add` etc. */
  options?: ValueChange[];
  /** Screens: layout items by `i`. */
  layout?: ItemChanges;
  /** Every other template key (screens: canvasConfigure, baseView, formView, …). */
  template?: ValueChange[];
}

export interface DiffDocument {
  server: string;
  summary: { added: number; removed: number; changed: number; unchanged: number };
  definitions: DefinitionDiff[];
}

/** Keys that record when and by whom, not what: a change of them alone changes no page. */
export const VOLATILE = new Set(['createTime', 'updateTime', 'createBy', 'updateBy']);

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

function change(key: string, a: unknown, b: unknown): ValueChange {
  const c: ValueChange = { key };
  if (a !== undefined) c.old = a;
  if (b !== undefined) c.new = b;
  return c;
}

/** Leaf changes between two values: objects by key, lists of objects by index, anything else whole. */
export function deepChanges(a: unknown, b: unknown, prefix: string): ValueChange[] {
  if (same(a, b)) return [];
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareText);
    return keys.flatMap((k) => deepChanges(a[k], b[k], join(prefix, k)));
  }
  if (Array.isArray(a) && Array.isArray(b) && [...a, ...b].some((x) => isRecord(x) || Array.isArray(x))) {
    return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => deepChanges(a[i], b[i], join(prefix, String(i)))).flat();
  }
  return [change(prefix, a, b)];
}

/** The items of a field list, which may also come as `{ items: [...] }`; other wrapper keys separately. */
function listOf(value: unknown): { items: unknown[]; rest: Record<string, unknown> } {
  if (Array.isArray(value)) return { items: value, rest: {} };
  if (isRecord(value)) {
    const { items, ...rest } = value;
    return { items: Array.isArray(items) ? items : [], rest };
  }
  return { items: [], rest: {} };
}

/** Name → item, with `name#2` for a repeated name and `#3` (its index) for an item without one. */
function byKey(items: readonly unknown[], keyOf: (item: Record<string, unknown>) => unknown): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  items.forEach((item, index) => {
    const rec = isRecord(item) ? item : { value: item };
    const raw = keyOf(rec);
    const base = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
    let k = base || `#${index}`;
    for (let n = 2; out.has(k); n++) k = `${base || `#${index}`}#${n}`;
    out.set(k, rec);
  });
  return out;
}

function itemChanges(a: readonly unknown[], b: readonly unknown[], keyName: string): ItemChanges {
  const keyOf = (item: Record<string, unknown>) => item[keyName];
  const before = byKey(a, keyOf);
  const after = byKey(b, keyOf);
  const result: ItemChanges = { added: [], removed: [], changed: [] };
  for (const [k, item] of after) {
    const old = before.get(k);
    if (!old) result.added.push(k);
    else {
      const { [keyName]: _a, ...restOld } = old;
      const { [keyName]: _b, ...restNew } = item;
      const changes = deepChanges(restOld, restNew, '');
      if (changes.length) result.changed.push({ name: k, changes });
    }
  }
  for (const k of before.keys()) if (!after.has(k)) result.removed.push(k);
  result.added.sort(compareText);
  result.removed.sort(compareText);
  result.changed.sort((x, y) => compareText(x.name, y.name));
  return result;
}

const isEmpty = (c: ItemChanges) => !c.added.length && !c.removed.length && !c.changed.length;

/** The sections of a view's template, as the model's wire shape names them. */
const VIEW_SECTIONS = KNOWN_TEMPLATE;

/** The sections of a changed definition; every list is empty when nothing differs. */
export function compareDefinitions(
  kind: DefinitionKind,
  local: Record<string, unknown>,
  remote: Record<string, unknown>,
): Omit<DefinitionDiff, 'kind' | 'id' | 'name' | 'status' | 'file'> {
  const { disMenu: menuA, disTemplate: templateA, ...topA } = local;
  const { disMenu: menuB, disTemplate: templateB, ...topB } = remote;
  const top = deepChanges(topA, topB, '');
  const menu = isRecord(menuA) && isRecord(menuB) ? deepChanges(menuA, menuB, '') : deepChanges(menuA, menuB, 'disMenu');
  // An undesigned template (null, '') reads as an empty one, so designing it shows what was added.
  const asTemplate = (t: unknown) => (t === null || t === undefined || (typeof t === 'string' && t.trim() === '') ? {} : t);
  const ta = asTemplate(templateA);
  const tb = asTemplate(templateB);
  if (!isRecord(ta) || !isRecord(tb)) {
    const whole = deepChanges(templateA, templateB, 'disTemplate');
    return kind === 'view'
      ? {
          top,
          menu,
          tableOption: itemChanges([], [], 'name'),
          formOption: itemChanges([], [], 'name'),
          buttons: itemChanges([], [], 'name'),
          options: [],
          template: whole,
        }
      : { top, menu, layout: itemChanges([], [], 'i'), template: whole };
  }
  if (kind === 'view') {
    const table = [listOf(ta.tableOption), listOf(tb.tableOption)] as const;
    const form = [listOf(ta.formOption), listOf(tb.formOption)] as const;
    const btnA = Array.isArray(ta.btnDIYOption) ? ta.btnDIYOption : [];
    const btnB = Array.isArray(tb.btnDIYOption) ? tb.btnDIYOption : [];
    const options = [
      ...deepChanges(ta.basicOption, tb.basicOption, 'basicOption'),
      ...deepChanges(ta.dialogOption, tb.dialogOption, 'dialogOption'),
      ...deepChanges(ta.formDividerOption, tb.formDividerOption, 'formDividerOption'),
      ...deepChanges(table[0].rest, table[1].rest, 'tableOption'),
      ...deepChanges(form[0].rest, form[1].rest, 'formOption'),
      // A button list that is not a list is still a change.
      ...(Array.isArray(ta.btnDIYOption) === Array.isArray(tb.btnDIYOption) || same(ta.btnDIYOption, tb.btnDIYOption)
        ? []
        : [change('btnDIYOption', ta.btnDIYOption, tb.btnDIYOption)]),
    ];
    const others = (t: Record<string, unknown>) => Object.fromEntries(Object.entries(t).filter(([k]) => !VIEW_SECTIONS.has(k)));
    return {
      top,
      menu,
      tableOption: itemChanges(table[0].items, table[1].items, 'name'),
      formOption: itemChanges(form[0].items, form[1].items, 'name'),
      buttons: itemChanges(btnA, btnB, 'name'),
      options,
      template: deepChanges(others(ta), others(tb), ''),
    };
  }
  const { layout: layoutA, ...restA } = ta;
  const { layout: layoutB, ...restB } = tb;
  const layoutIsList = Array.isArray(layoutA ?? []) && Array.isArray(layoutB ?? []);
  return {
    top,
    menu,
    layout: layoutIsList ? itemChanges((layoutA as unknown[]) ?? [], (layoutB as unknown[]) ?? [], 'i') : itemChanges([], [], 'i'),
    template: [...deepChanges(restA, restB, ''), ...(layoutIsList ? [] : deepChanges(layoutA, layoutB, 'layout'))],
  };
}

function hasChanges(d: ReturnType<typeof compareDefinitions>): boolean {
  return (
    !!(d.top?.length || d.menu?.length || d.options?.length || d.template?.length) ||
    [d.tableOption, d.formOption, d.buttons, d.layout].some((c) => c !== undefined && !isEmpty(c))
  );
}

function nameOf(json: unknown): string {
  return isRecord(json) && typeof json.name === 'string' ? json.name : '';
}

/** The whole comparison, without I/O: server definitions against the (in-scope) local files. */
export function diffDefinitions(
  project: Pick<Project, 'include' | 'exclude' | 'definitionsDir' | 'rel'>,
  server: string,
  remote: readonly RemoteDefinition[],
  local: readonly DefinitionFile[],
): DiffDocument {
  const file = (rel: string) => definitionFilePath(project, rel);
  const definitions: DefinitionDiff[] = [];
  let unchanged = 0;
  const seen = new Set<string>();
  for (const def of remote) {
    const k = `${def.kind}:${def.id}`;
    seen.add(k);
    if (!inScope(project, def.rel)) continue;
    const candidates = local.filter((f) => {
      const p = definitionIdOf(f.rel);
      return p?.kind === def.kind && p.id === def.id;
    });
    const mine = candidates.find((f) => f.rel === def.rel) ?? candidates[0];
    if (!mine) {
      definitions.push({ kind: def.kind, id: def.id, name: def.name, status: 'added', file: file(def.rel) });
      continue;
    }
    let json: unknown;
    let note: string | undefined;
    try {
      json = JSON.parse(mine.text);
    } catch {
      note = 'the local file is not valid JSON';
    }
    if (!isRecord(json)) {
      json = {};
      note ??= 'the local file is not a JSON object';
    }
    const sections = compareDefinitions(def.kind, json as Record<string, unknown>, def.json);
    const renamed = mine.rel !== def.rel;
    if (!renamed && !note && !hasChanges(sections)) {
      unchanged++;
      continue;
    }
    definitions.push({
      kind: def.kind,
      id: def.id,
      name: def.name,
      status: 'changed',
      file: file(mine.rel),
      ...(renamed ? { renamedTo: file(def.rel) } : {}),
      ...(note ? { note } : {}),
      ...sections,
    });
  }
  for (const f of local) {
    const parsed = definitionIdOf(f.rel);
    if (!parsed || parsed.kind !== f.kind || seen.has(`${parsed.kind}:${parsed.id}`)) continue;
    let name = '';
    try {
      name = nameOf(JSON.parse(f.text));
    } catch {
      // The name is only for the message.
    }
    definitions.push({ kind: parsed.kind, id: parsed.id, name, status: 'removed', file: f.file });
  }
  definitions.sort((a, b) => compareText(a.file, b.file) || compareText(a.kind, b.kind) || a.id - b.id);
  const count = (s: DefinitionDiff['status']) => definitions.filter((d) => d.status === s).length;
  return { server, summary: { added: count('added'), removed: count('removed'), changed: count('changed'), unchanged }, definitions };
}

// ----- human output -----

function show(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

const showChange = (c: ValueChange) => `${c.key || '(value)'}: ${show(c.old)} → ${show(c.new)}`;

/** How an added and a removed definition are described (diff reads the server; push writes it). */
export interface DiffWords {
  added: string;
  removed: string;
}

const DIFF_WORDS: DiffWords = { added: 'new on the server', removed: 'deleted on the server' };

export function printDefinition(d: DefinitionDiff, out: (line: string) => void, words: DiffWords = DIFF_WORDS): void {
  const title = `${d.kind} ${d.id}${d.name ? ` ${d.name}` : ''}`;
  if (d.status !== 'changed') {
    out(d.status === 'added' ? `+ ${d.file}  ${title} (${words.added})` : `- ${d.file}  ${title} (${words.removed})`);
    return;
  }
  out(`~ ${d.file}  ${title}${d.renamedTo ? ` (renamed to ${d.renamedTo})` : ''}`);
  const line = (text: string) => out(`    ${text}`);
  if (d.note) line(`note: ${d.note}`);
  const top = d.top ?? [];
  const stable = top.filter((c) => !VOLATILE.has(c.key));
  for (const c of stable) line(showChange(c));
  const otherChanges = stable.length || hasChanges({ ...d, top: [] });
  if (top.length > stable.length && !otherChanges) line(`only ${top.map((c) => c.key).join(', ')} changed`);
  for (const c of d.menu ?? []) line(`disMenu.${showChange(c)}`);
  const items = (label: string, c: ItemChanges | undefined) => {
    if (!c) return;
    for (const name of c.added) line(`${label} + ${name}`);
    for (const name of c.removed) line(`${label} - ${name}`);
    for (const x of c.changed) {
      if (x.changes.length === 1) line(`${label} ~ ${x.name}  ${showChange(x.changes[0] as ValueChange)}`);
      else {
        line(`${label} ~ ${x.name}`);
        for (const ch of x.changes) line(`    ${showChange(ch)}`);
      }
    }
  };
  items('table field', d.tableOption);
  items('form field', d.formOption);
  items('button', d.buttons);
  for (const c of d.options ?? []) line(showChange(c));
  items('layout', d.layout);
  for (const c of d.template ?? []) line(showChange(c));
}

interface DiffFlags extends RemoteFlags {
  cwd?: string;
  config?: string;
  json?: boolean;
  exitCode?: boolean;
  impact?: boolean;
}

export default function register(program: Command, ctx: CommandContext): void {
  const cmd = program
    .command('diff')
    .description('Show what changed on the server against definitions/, per definition, without writing anything.')
    .option('--cwd <dir>', 'project directory (default: the current directory)')
    .option('--config <file>', 'config file, relative to the project directory (default: wastegen.config.json)')
    .option('--json', 'print a JSON document (stable: sorted by file, keys in a fixed order)')
    .option('--exit-code', 'exit with 1 when there are differences (as `git diff --exit-code`)')
    .option(
      '--impact',
      "also list hand-written files that use a record field, export or route the server's definitions no longer give (loads ts-morph)",
    );
  addRemoteOptions(cmd)
    .addHelpText(
      'after',
      `
Examples:
  $ wastegen diff --server http://127.0.0.1:8080 --token "$TOKEN"
  $ wastegen diff --json > server-changes.json
  $ wastegen diff --exit-code || echo "the server has changes: run wastegen pull"

Lines: "+" a definition new on the server, "-" one deleted there, "~" one changed; under it, fields
of the table and the form and buttons by name (+ added, - removed, ~ changed with old → new values),
options such as basicOption.add, and for screens layout items by "i". Key order is not a change.

With --impact, also lists the hand-written files (outside generated/) that use a record field, an
export or a route path the server's definitions no longer give, and exits 1 when there is any.

Exit codes: 0 (also with differences, unless --exit-code), 1 differences with --exit-code (or an
impact with --impact), 2 usage, 3 network or auth.`,
    )
    .action(async (flags: DiffFlags) => {
      const project = loadProject({ cwd: flags.cwd, config: flags.config, server: flags.server });
      const options = remoteOptions(project, flags);
      // Read first: a definitions folder that is not there is an error, found before any call.
      const local = readDefinitionFiles(project);
      const fetched = await fetchAllDefinitions(options);
      const doc = diffDefinitions(project, options.baseUrl, fetched.definitions, local);
      const out = (line: string) => ctx.output.out(line);
      if (flags.json) out(JSON.stringify(doc, null, 2));
      else {
        for (const d of doc.definitions) printDefinition(d, out);
        const s = doc.summary;
        out(
          doc.definitions.length
            ? `${s.changed} changed, ${s.added} added, ${s.removed} removed, ${s.unchanged} unchanged on ${doc.server} against ${project.rel(project.definitionsDir) || '.'}/`
            : `no differences: ${s.unchanged} definitions on ${doc.server} match ${project.rel(project.definitionsDir) || '.'}/`,
        );
      }
      let impacted = false;
      if (flags.impact) {
        const sources = fetched.definitions
          .filter((d) => inScope(project, d.rel))
          .map((d) => ({ kind: d.kind, rel: d.rel, file: definitionFilePath(project, d.rel), text: d.text }));
        const result = await compileSources(project, sources);
        const errors = errorsOf(result.problems);
        if (errors.length)
          throw new CliError(
            `the server's definitions have ${errors.length} problem${errors.length === 1 ? '' : 's'}; their impact cannot be computed`,
            EXIT.invalid,
            undefined,
            errors,
          );
        impacted = await reportImpact(project, result.files, ctx);
      }
      ctx.setExit((flags.exitCode && doc.definitions.length) || impacted ? EXIT.invalid : EXIT.ok);
    });
}
