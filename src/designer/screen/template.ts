import { type BigScreenModel, CANVAS_DEFAULTS, normalizeDefinition, type Problem } from '../../model/index.js';
import { choices } from '../../shared/choices.js';

/**
 * The designer edits a big screen's disTemplate as the JSON it is stored as (canvasConfigure and
 * layout), so keys it does not know survive a save and problem pointers of the page model point
 * straight at what the designer shows. Every edit returns a new template and shares what it did not
 * touch, so an unchanged container keeps its identity (and its charts do not redraw).
 */

export type Json = Record<string, unknown>;
export type Path = readonly (string | number)[];

export interface DesignChart extends Json {
  fileName: string;
  chartIndex: number;
  flexSize: number;
  configure: { common: Json; private: Json };
}

export interface DesignItem extends Json {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  container: { style: Json; header: Json; super: Json };
  chart: DesignChart[];
}

export interface DesignTemplate extends Json {
  canvasConfigure: { basic: Json; header: Json; mainTitle: Json; subTitle: Json; themeColor: { start: string; end: string }[] };
  layout: DesignItem[];
}

/** A screen as the designer checks it: what the page model needs beside the template. */
export interface DesignScreen {
  id: number;
  name?: string;
  type: number;
  status?: number;
}

export const CANVAS_BASIC = CANVAS_DEFAULTS.basic;
const CANVAS_HEADER = CANVAS_DEFAULTS.header;
const MAIN_TITLE = { size: 32, color: '#ffffff', bold: true };
const SUB_TITLE = { time: false, size: 16, color: '#ffffff', bold: false };

/** The places and sizes a background image may take (CSS background-position, background-size). */
export const BG_POSITIONS = choices({ center: '居中', top: '顶部', bottom: '底部', left: '左侧', right: '右侧' });

export const BG_SIZES = choices({ '100% 100%': '拉伸铺满', cover: '覆盖', contain: '完整显示', auto: '原始大小' });

/** How a text lines up: a container's header, a chart's title. */
export const ALIGN_OPTIONS = choices({ left: '居左', center: '居中', right: '居右' });

/** The eight predefined theme colours (start, end). */
export const PRESET_THEME_COLORS: readonly { start: string; end: string }[] = [
  { start: '#2F6EFF', end: '#00C6FF' },
  { start: '#11A983', end: '#7CF5C8' },
  { start: '#F7B500', end: '#FFE58F' },
  { start: '#F5222D', end: '#FF9C6E' },
  { start: '#6959CD', end: '#B37FEB' },
  { start: '#13C2C2', end: '#87E8DE' },
  { start: '#1890FF', end: '#91D5FF' },
  { start: '#FA8C16', end: '#FFD591' },
];

export const CHART_LABELS: Record<string, string> = {
  siteInfo: '站点信息',
  provinceInfo: '省级信息',
  companyData: '企业数据',
  lineBar: '折线柱状图',
  pie: '饼图',
  scrollList: '滚动列表',
  cityTransaction: '城市交易',
  radar: '雷达图（示例）',
};

const isRecord = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const recordOr = (v: unknown): Json => (isRecord(v) ? v : {});

function containerOf(v: unknown): DesignItem['container'] {
  const c = recordOr(v);
  const sup = recordOr(c.super);
  return {
    ...c,
    style: recordOr(c.style),
    header: { showTitle: false, content: '', ...recordOr(c.header) },
    super: {
      flexDirection: 'row',
      animation: '',
      ...sup,
      absolute:
        typeof sup.absolute === 'object' && sup.absolute
          ? sup.absolute
          : { enabled: !!sup.absolute, top: sup.top ?? 0, left: sup.left ?? 0 },
      scroll:
        typeof sup.scroll === 'object' && sup.scroll
          ? sup.scroll
          : { enabled: !!sup.scroll, direction: sup.direction ?? 'vertical', speed: sup.speed ?? 3000 },
      curtain:
        typeof sup.curtain === 'object' && sup.curtain
          ? sup.curtain
          : { enabled: !!sup.curtain, curtainColor: sup.curtainColor ?? 'rgba(0, 0, 0, 0.4)' },
    },
  };
}

function chartOf(v: unknown, index: number): DesignChart {
  const c = recordOr(v);
  const configure = recordOr(c.configure);
  return {
    ...c,
    fileName: typeof c.fileName === 'string' ? c.fileName : '',
    chartIndex: typeof c.chartIndex === 'number' ? c.chartIndex : index,
    flexSize: typeof c.flexSize === 'number' ? c.flexSize : 1,
    configure: { ...configure, common: recordOr(configure.common), private: recordOr(configure.private) },
  };
}

/**
 * A stored disTemplate (JSON text, an object, or nothing) as the designer edits it: the canvas with
 * its documented defaults written out, every container with an id and its three setting groups, the
 * charts of each in their order. Other keys are kept.
 */
export function templateOf(raw: unknown): DesignTemplate {
  let t: unknown = raw;
  if (typeof raw === 'string') {
    try {
      t = raw.trim() ? JSON.parse(raw) : {};
    } catch {
      t = {};
    }
  }
  const tpl = recordOr(t);
  const c = recordOr(tpl.canvasConfigure);
  const seen = new Set<string>();
  const layout = (Array.isArray(tpl.layout) ? tpl.layout : []).map((v, n): DesignItem => {
    const item = recordOr(v);
    let i = typeof item.i === 'string' && item.i.trim() ? item.i : String(n);
    while (seen.has(i)) i = `${i}_`;
    seen.add(i);
    const charts = (Array.isArray(item.chart) ? item.chart : []).map(chartOf).sort((a, b) => a.chartIndex - b.chartIndex);
    return {
      ...item,
      i,
      x: typeof item.x === 'number' ? item.x : 0,
      y: typeof item.y === 'number' ? item.y : 0,
      w: typeof item.w === 'number' ? item.w : Number(recordOr(c.basic).defaultW ?? CANVAS_BASIC.defaultW),
      h: typeof item.h === 'number' ? item.h : Number(recordOr(c.basic).defaultH ?? CANVAS_BASIC.defaultH),
      container: containerOf(item.container),
      chart: charts,
    };
  });
  const themes = Array.isArray(c.themeColor) ? c.themeColor : [];
  return {
    ...tpl,
    canvasConfigure: {
      ...c,
      basic: { ...CANVAS_BASIC, ...recordOr(c.basic) },
      header: { ...CANVAS_HEADER, ...recordOr(c.header) },
      mainTitle: { ...MAIN_TITLE, ...recordOr(c.mainTitle) },
      subTitle: { ...SUB_TITLE, ...recordOr(c.subTitle) },
      themeColor: themes.map((x) => {
        const r = recordOr(x);
        const start = typeof r.start === 'string' ? r.start : typeof x === 'string' ? x : '#2F6EFF';
        return { start, end: typeof r.end === 'string' ? r.end : start };
      }),
    },
    layout,
  };
}

// ----- reading and writing by path -----

export function getIn(value: unknown, path: Path): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

/** A copy of `value` with `path` set to `next`; missing objects on the way are created; unchanged when equal. */
export function setIn<T>(value: T, path: Path, next: unknown): T {
  if (path.length === 0) return next as T;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const current = value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>) : undefined;
  const child = current?.[key];
  const updated = setIn(child, rest, next);
  if (current && Object.is(child, updated) && key in current) return value;
  if (Array.isArray(current)) {
    const copy = [...current];
    copy[key as number] = updated;
    return copy as T;
  }
  return { ...(current ?? {}), [key]: updated } as T;
}

/** The JSON pointer the page model uses for a path of the template. */
export const pointerOfPath = (path: Path): string =>
  `/disTemplate/${path.map((k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

// ----- containers and charts -----

const indexOfItem = (t: DesignTemplate, i: string) => t.layout.findIndex((x) => x.i === i);

/** The next free container id: c1, c2, … */
export function nextItemId(t: DesignTemplate): string {
  const used = new Set(t.layout.map((x) => x.i));
  let n = t.layout.length + 1;
  while (used.has(`c${n}`)) n++;
  return `c${n}`;
}

/** The rows of the canvas's grid: two per default height, as the viewer lays it out. */
export const rowsOf = (t: DesignTemplate): number => Math.max(1, 2 * (Number(t.canvasConfigure.basic.defaultH) || CANVAS_BASIC.defaultH));

const isPlacedAbsolutely = (x: DesignItem) => !!(x.container.super as Json & { absolute?: Json }).absolute?.enabled;

/** A new container of the default size in the first free place on the canvas, else below everything, at the left. */
export function addContainer(t: DesignTemplate): { template: DesignTemplate; i: string } {
  const basic = t.canvasConfigure.basic;
  const cols = Math.max(1, Number(basic.defaultCol) || CANVAS_BASIC.defaultCol);
  const rows = rowsOf(t);
  const w = Math.min(cols, Math.max(1, Number(basic.defaultW) || CANVAS_BASIC.defaultW));
  const h = Math.min(rows, Math.max(1, Number(basic.defaultH) || CANVAS_BASIC.defaultH));
  // The first gap in reading order wide enough and above the canvas's bottom, else a new row below everything.
  const bottom = t.layout.reduce((m, x) => (isPlacedAbsolutely(x) ? m : Math.max(m, x.y + x.h)), 0);
  let spot = { x: 0, y: bottom };
  search: for (let y = 0; y + h <= rows; y++) {
    for (let x = 0; x + w <= cols; x++) {
      if (!t.layout.some((o) => !isPlacedAbsolutely(o) && o.x < x + w && x < o.x + o.w && o.y < y + h && y < o.y + o.h)) {
        spot = { x, y };
        break search;
      }
    }
  }
  const i = nextItemId(t);
  const item: DesignItem = { i, ...spot, w, h, container: containerOf({}), chart: [] };
  return { template: { ...t, layout: [...t.layout, item] }, i };
}

export function removeContainer(t: DesignTemplate, i: string): DesignTemplate {
  return { ...t, layout: t.layout.filter((x) => x.i !== i) };
}

/** Each kind's private settings when added from the gallery. */
export function chartDefaults(kind: string): Json {
  switch (kind) {
    case 'pie':
      return { radiusInside: 0, radiusOutSide: 70, fontSize: 12, roseType: '', label: { show: true, unit: '' } };
    case 'lineBar':
      return { legend: { show: true, position: 'top' }, grid: { top: 40, right: 20, bottom: 30, left: 50 } };
    case 'scrollList':
      return { interval: 3000 };
    default:
      return {};
  }
}

/** Adds a chart of `kind` at the end of container `i`. */
export function addChart(t: DesignTemplate, i: string, kind: string): DesignTemplate {
  const at = indexOfItem(t, i);
  if (at < 0) return t;
  const item = t.layout[at] as DesignItem;
  const chart: DesignChart = {
    fileName: kind,
    chartIndex: item.chart.length,
    flexSize: 1,
    configure: { common: { colorModel: 'gradient', privateColorFirst: false, themeColor: [] }, private: chartDefaults(kind) },
  };
  return setIn(t, ['layout', at, 'chart'], renumber([...item.chart, chart]));
}

const renumber = (charts: DesignChart[]) => charts.map((c, n) => (c.chartIndex === n ? c : { ...c, chartIndex: n }));

export function removeChart(t: DesignTemplate, i: string, chart: number): DesignTemplate {
  const at = indexOfItem(t, i);
  if (at < 0) return t;
  return setIn(t, ['layout', at, 'chart'], renumber((t.layout[at] as DesignItem).chart.filter((_, n) => n !== chart)));
}

/** Moves chart `chart` of container `i` one place up (-1) or down (+1) in its container. */
export function moveChart(t: DesignTemplate, i: string, chart: number, by: -1 | 1): DesignTemplate {
  const at = indexOfItem(t, i);
  const charts = at < 0 ? [] : [...(t.layout[at] as DesignItem).chart];
  const to = chart + by;
  if (to < 0 || to >= charts.length) return t;
  [charts[chart], charts[to]] = [charts[to] as DesignChart, charts[chart] as DesignChart];
  return setIn(t, ['layout', at, 'chart'], renumber(charts));
}

export interface Cell {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The grid's positions after a drag or resize; containers whose cell did not change are kept as they were. */
export function placeCells(t: DesignTemplate, cells: readonly Cell[]): DesignTemplate {
  const by = new Map(cells.map((c) => [c.i, c]));
  let changed = false;
  const layout = t.layout.map((item) => {
    const c = by.get(item.i);
    if (!c || (c.x === item.x && c.y === item.y && c.w === item.w && c.h === item.h)) return item;
    changed = true;
    return { ...item, x: c.x, y: c.y, w: c.w, h: c.h };
  });
  return changed ? { ...t, layout } : t;
}

/** Moves container `i` by whole cells, kept inside the columns and the rows of the canvas. */
export function nudge(t: DesignTemplate, i: string, dx: number, dy: number): DesignTemplate {
  const at = indexOfItem(t, i);
  if (at < 0) return t;
  const item = t.layout[at] as DesignItem;
  const cols = Math.max(1, Number(t.canvasConfigure.basic.defaultCol) || CANVAS_BASIC.defaultCol);
  const x = Math.min(Math.max(0, item.x + dx), Math.max(0, cols - item.w));
  const y = Math.min(Math.max(0, item.y + dy), Math.max(0, rowsOf(t) - item.h));
  return placeCells(t, [{ i, x, y, w: item.w, h: item.h }]);
}

// ----- checking -----

export interface Checked {
  /** The page model; undefined when the template cannot be read at all. */
  model?: BigScreenModel;
  problems: Problem[];
}

/**
 * Containers on the grid that reach below the canvas's last row, which the viewer cannot show: an
 * error at the container's row (or height, when it is taller than the canvas).
 */
export function overflowProblems(file: string, t: DesignTemplate): Problem[] {
  const rows = rowsOf(t);
  const problems: Problem[] = [];
  t.layout.forEach((item, n) => {
    if (isPlacedAbsolutely(item) || item.y + item.h <= rows) return;
    const taller = item.h > rows;
    problems.push({
      code: 'E_RANGE',
      file,
      pointer: pointerOfPath(['layout', n, taller ? 'h' : 'y']),
      message: taller
        ? `容器 ${item.i} 高 ${item.h} 行，超过画布的 ${rows} 行，超出部分在大屏上不显示`
        : `容器 ${item.i} 在第 ${item.y + 1}–${item.y + item.h} 行，超出画布底部（共 ${rows} 行），超出部分在大屏上不显示`,
      hint: '把容器拖回画布内或减小高度',
    });
  });
  return problems;
}

/** The page model's reading of the template: the same checks and messages as `wastegen check`, and containers below the canvas. */
export function checkTemplate(screen: DesignScreen, t: DesignTemplate): Checked {
  const file = `大屏 ${screen.id}`;
  const result = normalizeDefinition({
    kind: 'screen',
    file,
    json: { id: screen.id, name: screen.name, type: screen.type, status: screen.status ?? 0, disTemplate: t },
  });
  return {
    model: result.page?.kind === 'bigScreen' ? result.page : undefined,
    problems: [...result.problems, ...overflowProblems(file, t)],
  };
}

/** Problems at a pointer or below it. */
export const problemsUnder = (problems: readonly Problem[], pointer: string): Problem[] =>
  problems.filter((p) => p.pointer === pointer || p.pointer.startsWith(`${pointer}/`));

const contentKeys = new WeakMap<object, string>();
const contentOf = (item: BigScreenModel['layout'][number]) => {
  let key = contentKeys.get(item);
  if (key === undefined) {
    key = JSON.stringify([item.container, item.charts]);
    contentKeys.set(item, key);
  }
  return key;
};

/**
 * `next` with the canvas and the containers of `prev` wherever their content is unchanged, so the
 * designer's canvas redraws only the containers an edit touched. A kept container keeps its old
 * x, y, w and h: the designer places containers from the template, never from the model.
 */
export function shareModel(prev: BigScreenModel | undefined, next: BigScreenModel): BigScreenModel {
  if (!prev) return next;
  const canvas = JSON.stringify(prev.canvas) === JSON.stringify(next.canvas) ? prev.canvas : next.canvas;
  const before = new Map(prev.layout.map((item) => [item.i, item]));
  let same = canvas === prev.canvas && prev.layout.length === next.layout.length && prev.title === next.title;
  const layout = next.layout.map((item, n) => {
    const old = before.get(item.i);
    const kept = old && contentOf(old) === contentOf(item) ? old : item;
    if (kept !== prev.layout[n]) same = false;
    return kept;
  });
  return same ? prev : { ...next, canvas, layout };
}
