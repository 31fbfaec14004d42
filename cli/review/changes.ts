import { compareText, isRecord, isWarning, normalizeDefinition } from '../../src/model/index.js';
import { type DefinitionDiff, diffDefinitions, type ItemChanges, type ValueChange, VOLATILE } from '../commands/diff.js';
import { type DefinitionFile, definitionIdOf } from '../definitions-dir.js';
import type { Project } from '../project.js';
import type { RemoteDefinition } from '../remote.js';

/**
 * What a pull request changed in definitions/: each definition added, changed or removed between
 * the base revision and the working tree, with its changes in Chinese, as a reviewer reads them.
 * A definition whose only changes are its times or authors is unchanged: nothing on its pages moves.
 */

export interface ReviewItem {
  kind: 'view' | 'screen';
  id: number;
  name: string;
  status: 'added' | 'changed' | 'removed';
  file: string;
  /** One line per change, in Chinese. */
  changes: string[];
  /** What makes the working tree's definition invalid, as `file#/pointer: message` (its pages show these). */
  problems: string[];
  /** The definition at the base and in the working tree (absent when added or removed). */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/** Definitions by kind and id, as the server would answer them. */
export interface DefinitionSet {
  views: Map<number, Record<string, unknown>>;
  screens: Map<number, Record<string, unknown>>;
}

/** A configure key (or any key of a definition) as the designers name it. */
const KEY_WORDS: Record<string, string> = {
  chName: '标题',
  label: '标题',
  name: '名称',
  dataType: '数据类型',
  required: '必填',
  show: '显示',
  search: '可搜索',
  sortable: '可排序',
  sort: '顺序',
  width: '宽度',
  align: '对齐',
  fixed: '固定',
  dict: '字典',
  dictName: '字典',
  dataUrl: '选项地址',
  sportData: '选项来源',
  multiple: '多选',
  min: '最小值',
  max: '最大值',
  pattern: '格式',
  validator: '校验',
  tips: '提示',
  defaultValue: '默认值',
  timeFormat: '时间格式',
  precision: '小数位',
  decimals: '小数位',
  editLock: '编辑时锁定',
  disabled: '禁用',
  position: '位置',
  action: '动作',
  root: '可见角色',
  confirm: '需确认',
  groovyAction: '脚本',
  title: '标题',
  type: '类型',
  status: '状态',
  add: '新增',
  edit: '编辑',
  del: '删除',
  look: '查看',
  export: '导出',
  import: '导入',
  labelWidth: '标签宽度',
  inputWidth: '输入框宽度',
};

const wordOf = (key: string) => {
  const last = key.split('.').pop() ?? key;
  const word = KEY_WORDS[last];
  return word ? `${key}（${word}）` : key;
};

function show(value: unknown): string {
  if (value === undefined) return '（无）';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 48 ? `${text.slice(0, 45)}…` : text;
}

const changeText = (c: ValueChange) =>
  c.old === undefined
    ? `${wordOf(c.key)} 设为 ${show(c.new)}`
    : c.new === undefined
      ? `${wordOf(c.key)} 去掉（原为 ${show(c.old)}）`
      : `${wordOf(c.key)}：${show(c.old)} → ${show(c.new)}`;

/** The items of a template list (`[...]` or `{ items: [...] }`) by name, for their titles. */
function titles(template: unknown, list: string): Map<string, string> {
  const t = isRecord(template) ? template[list] : undefined;
  const items = Array.isArray(t) ? t : isRecord(t) && Array.isArray(t.items) ? t.items : [];
  const out = new Map<string, string>();
  for (const item of items)
    if (isRecord(item) && typeof item.name === 'string') out.set(item.name, typeof item.chName === 'string' ? item.chName : item.name);
  return out;
}

function describe(d: DefinitionDiff, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): string[] {
  if (d.status === 'added') return ['新增定义'];
  if (d.status === 'removed') return ['删除定义'];
  const lines: string[] = [];
  if (d.note) lines.push(d.note);
  for (const c of d.top ?? []) if (!VOLATILE.has(c.key)) lines.push(changeText(c));
  for (const c of d.menu ?? []) lines.push(`菜单 ${changeText(c)}`);
  const named = (list: string, name: string) => {
    const base = name.replace(/#\d+$/, '');
    const title = titles(after?.disTemplate, list).get(base) ?? titles(before?.disTemplate, list).get(base);
    return title && title !== base ? `「${title}」(${name})` : `「${name}」`;
  };
  const items = (what: string, list: string, c: ItemChanges | undefined) => {
    if (!c) return;
    for (const n of c.added) lines.push(`${what}${named(list, n)} 新增`);
    for (const n of c.removed) lines.push(`${what}${named(list, n)} 删除`);
    for (const x of c.changed) for (const ch of x.changes) lines.push(`${what}${named(list, x.name)} ${changeText(ch)}`);
  };
  items('列表字段', 'tableOption', d.tableOption);
  items('表单字段', 'formOption', d.formOption);
  items('按钮', 'btnDIYOption', d.buttons);
  for (const c of d.options ?? []) lines.push(changeText(c));
  items('布局项', 'layout', d.layout);
  for (const c of d.template ?? []) lines.push(changeText(c));
  return lines;
}

function asRemote(f: DefinitionFile): RemoteDefinition | undefined {
  const parsed = definitionIdOf(f.rel);
  if (!parsed) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(f.text);
  } catch {
    json = {};
  }
  const rec = isRecord(json) ? json : {};
  return {
    kind: parsed.kind,
    id: parsed.id,
    name: typeof rec.name === 'string' ? rec.name : '',
    rel: f.rel,
    json: rec,
    text: f.text,
    undesigned: false,
  };
}

/** The set of definitions of a revision, by kind and id. */
export function setOf(files: readonly DefinitionFile[]): DefinitionSet {
  const set: DefinitionSet = { views: new Map(), screens: new Map() };
  for (const f of files) {
    const r = asRemote(f);
    if (r) (r.kind === 'view' ? set.views : set.screens).set(r.id, r.json);
  }
  return set;
}

/** The definitions that changed from `base` to `work`, sorted by file; and how many did not. */
export function reviewChanges(
  project: Pick<Project, 'include' | 'exclude' | 'definitionsDir' | 'rel'>,
  base: readonly DefinitionFile[],
  work: readonly DefinitionFile[],
): { items: ReviewItem[]; unchanged: number; before: DefinitionSet; after: DefinitionSet } {
  const remote = work.flatMap((f) => asRemote(f) ?? []);
  const doc = diffDefinitions(project, 'working tree', remote, base);
  const before = setOf(base);
  const after = setOf(work);
  let unchanged = doc.summary.unchanged;
  const items: ReviewItem[] = [];
  for (const d of doc.definitions) {
    const set = (s: DefinitionSet) => (d.kind === 'view' ? s.views : s.screens).get(d.id);
    const b = d.status === 'added' ? undefined : set(before);
    const a = d.status === 'removed' ? undefined : set(after);
    const changes = describe(d, b, a);
    if (d.status === 'changed' && !changes.length) {
      unchanged++;
      continue;
    }
    const problems = a
      ? normalizeDefinition({ kind: d.kind, file: d.renamedTo ?? d.file, json: a })
          .problems.filter((p) => !isWarning(p))
          .map((p) => `${p.file}#${p.pointer}: ${p.message}`)
      : [];
    items.push({
      kind: d.kind,
      id: d.id,
      name: d.name || (typeof b?.name === 'string' ? b.name : ''),
      status: d.status,
      file: d.renamedTo ?? d.file,
      changes,
      problems,
      ...(b ? { before: b } : {}),
      ...(a ? { after: a } : {}),
    });
  }
  items.sort((x, y) => compareText(x.file, y.file));
  return { items, unchanged, before, after };
}
