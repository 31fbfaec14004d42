/**
 * Sample data for drawing a page without a server: every value derived from the definition alone
 * (the view's name, the field's name and kind, the row's index), so two runs, and the before and
 * after of a change, draw the same values for the same field. Pure: no clock, no randomness.
 */
import type { DataProvider, Row } from '../engine';
import { HttpError } from '../engine';
import type { BigScreenModel, ChartModel, ColumnModel, FieldModel, ListPageModel } from '../model';
import { formatDate } from '../shared/format';
import { REVIEW_CLOCK } from '../shared/review-page';

/** The rows a list shows. */
export const SAMPLE_ROWS = 20;

/** Ids of the records a field picks (a remote select's values); a page that shows one of these bare shows an id. */
export const REFERENCE_IDS: readonly string[] = Array.from({ length: 12 }, (_, i) => String(73_000_101 + i * 7));

const COMPANIES = [
  '华东危废处置有限公司',
  '江南环保科技股份有限公司',
  '浙东化工集团有限公司',
  '申城固废运输有限公司',
  '临港精细化工有限公司',
  '钱塘绿色再生资源有限公司',
  '苏南医疗废物处置中心',
  '甬江电镀工业园',
  '皖北危险品仓储有限公司',
  '舟山港区物流有限公司',
  '金华汽车零部件制造厂',
  '嘉兴印染有限公司',
];
const PEOPLE = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨帆', '赵磊', '黄敏', '周婷', '吴强'];
const WASTES = ['废矿物油', '含铜废液', '废有机溶剂', '废活性炭', '表面处理废物', '废酸', '医疗废物', '含镍污泥'];
const ADDRESSES = [
  '浙江省杭州市西湖区文三路 478 号华星时代广场 A 座 12 楼',
  '上海市浦东新区张江高科技园区郭守敬路 351 号 2 号楼',
  '江苏省苏州市工业园区星湖街 328 号创意产业园 5 幢',
];
/** Long enough to wrap in any cell or input, so a review shows how a page handles it. */
const LONG_TEXT =
  '本批次危险废物经现场核对，包装完好、标识清晰，按合同约定由处置单位统一收运；运输途中须全程定位，到厂后 24 小时内完成称重复核并回传联单，如有异常请及时联系项目负责人。';
const MONTHS = ['1月', '2月', '3月', '4月', '5月', '6月', '7月', '8月', '9月', '10月', '11月', '12月'];
const REGIONS = [
  {
    value: '330000',
    label: '浙江省',
    children: [
      {
        value: '330100',
        label: '杭州市',
        children: [
          { value: '330106', label: '西湖区' },
          { value: '330108', label: '滨江区' },
        ],
      },
      { value: '330200', label: '宁波市', children: [{ value: '330212', label: '鄞州区' }] },
    ],
  },
  {
    value: '310000',
    label: '上海市',
    children: [{ value: '310100', label: '市辖区', children: [{ value: '310115', label: '浦东新区' }] }],
  },
];

/** The districts of the sample region tree, by code. */
const CITY_CODES = ['330106', '330108', '330212', '310115'];

/** A district's labels from province down, as the server keeps them in `{name}Fmt` (浙江省/杭州市/西湖区). */
export function cityLabels(code: string): string {
  const walk = (nodes: readonly { value: string; label: string; children?: unknown }[], path: string[]): string | undefined => {
    for (const n of nodes) {
      const here = [...path, n.label];
      if (n.value === code) return here.join('/');
      const found = Array.isArray(n.children) ? walk(n.children as typeof nodes, here) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  return walk(REGIONS, []) ?? code;
}

/** FNV-1a of the text: the same text always picks the same sample. */
export function sampleHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const pick = <T>(list: readonly T[], seed: string): T => list[sampleHash(seed) % list.length] as T;

/** A sample moment `row` days (and some hours) before the review's fixed clock, in the field's format (the page's time zone, China's). */
export function sampleDate(seed: string, row: number, format = 'YYYY-MM-DD HH:mm:ss'): string {
  return formatDate(REVIEW_CLOCK - row * 86_400_000 - (sampleHash(seed) % 10) * 3_600_000 - (sampleHash(`${seed}m`) % 60) * 60_000, format);
}

/** Dictionary entries for a dictionary name, labelled after what the field is about. */
export function sampleDict(name: string, label = ''): { value: string; label: string; type: string }[] {
  const types = ['success', 'warning', 'info', 'danger'];
  const labels = /状态$/.test(label)
    ? ['待审核', '已通过', '已驳回', '已完成']
    : /^是否/.test(label) || /是否/.test(name)
      ? ['是', '否']
      : /类别|类型/.test(label)
        ? ['HW08 废矿物油', 'HW17 表面处理废物', 'HW49 其他废物']
        : /方式/.test(label)
          ? ['焚烧', '物化处理', '安全填埋']
          : [`${label || name}一`, `${label || name}二`, `${label || name}三`];
  return labels.map((l, i) => ({ value: String(i + 1), label: l, type: types[i % types.length] as string }));
}

/** What the records behind an options address are called, by the address: people, documents, warehouses, vehicles or companies. */
function labelsFor(url: string): readonly string[] {
  if (/linkman|user|person|contact|staff|driver|member/i.test(url)) return PEOPLE;
  if (/stock|order|contract|inquir|bill|manifest/i.test(url))
    return REFERENCE_IDS.map((_, i) => `RK2026061${i % 10}${String(101 + i * 13).padStart(4, '0')}`);
  if (/warehouse|store|depot/i.test(url))
    return ['杭州危废暂存库', '宁波一号仓', '嘉兴中转仓', '绍兴化工园区仓', '湖州备用仓', '温州港区仓'];
  if (/vehicle|car|truck/i.test(url)) return ['浙A·D1234', '浙B·F5678', '沪C·K2468', '苏E·M1357'];
  return COMPANIES;
}

/** Options of a remote select (flat, which a tree select also reads): the sample records a field can pick, by id. */
export function sampleOptions(url: string): { value: string; label: string }[] {
  const labels = labelsFor(url);
  const offset = sampleHash(url) % 3;
  return REFERENCE_IDS.map((id, i) => ({ value: id, label: labels[(i + offset) % labels.length] as string }));
}

type Kind = FieldModel['kind'];

/** A field of the form or a column of the list, as far as its sample value goes. */
interface ValueFacts {
  name: string;
  label: string;
  kind: Kind;
  decimals?: number;
  min?: number;
  max?: number;
  timeFormat?: string;
  validator?: string;
  dict?: string;
  multiple?: boolean;
}

const factsOfField = (f: FieldModel): ValueFacts => ({
  name: f.name,
  label: f.label,
  kind: f.kind,
  decimals: f.decimals,
  min: f.min,
  max: f.max,
  timeFormat: f.timeFormat,
  validator: f.validator,
  dict: f.dict,
  multiple: f.remote?.multiple,
});

function columnKind(c: ColumnModel): Kind {
  if (c.dict) return 'dict';
  if (c.remote) return 'remote';
  if (c.searchKind === 'city') return 'city';
  if (c.dataType === 'datetime') return 'datetime';
  if (c.dataType === 'decimal') return 'decimal';
  if (c.dataType === 'long') return 'long';
  return 'text';
}

const factsOfColumn = (c: ColumnModel): ValueFacts => ({
  name: c.name,
  label: c.label,
  kind: columnKind(c),
  decimals: c.decimals,
  timeFormat: c.timeFormat,
  dict: c.dict,
  multiple: c.remote?.multiple,
});

/** A field that holds another record's id (`companyId`, `warehouse_id`): its sample is a reference id. */
const holdsReference = (name: string) => /(?:[a-z0-9]Id|_id|ID)$/.test(name);

function sampleText(f: ValueFacts, seed: string, row: number): string {
  const l = f.label;
  switch (f.validator) {
    case 'mobile':
    case 'phone':
      return `13${(sampleHash(seed) % 9) + 1}${String(10_000_000 + (sampleHash(`${seed}p`) % 89_999_999)).slice(0, 8)}`;
    case 'landline':
      return `0571-${String(8_000_000 + (sampleHash(seed) % 999_999))}`;
    case 'email':
      return `user${sampleHash(seed) % 900}@example.com`;
    case 'url':
      return 'https://waste.example.com/docs';
    case 'lowercase':
      return 'sample';
    case 'uppercase':
      return 'SAMPLE';
    case 'letters':
      return 'Sample';
    case 'username':
      return 'admin';
  }
  if (/(备注|说明|描述|内容|意见|原因)/.test(l)) return row % 4 === 1 ? LONG_TEXT : LONG_TEXT.slice(0, 24 + (sampleHash(seed) % 20));
  if (/(单位|公司|企业|客户|供应商|厂)/.test(l)) return pick(COMPANIES, seed);
  if (/(人|员|姓名)$/.test(l)) return pick(PEOPLE, seed);
  if (/(电话|手机|联系方式)/.test(l)) return `13${(sampleHash(seed) % 9) + 1}${String(10_000_000 + (sampleHash(`${seed}p`) % 89_999_999))}`;
  if (/地址|地点/.test(l)) return pick(ADDRESSES, seed);
  if (/(废物|危废|名称)/.test(l)) return pick(WASTES, seed);
  if (/(编号|号|编码|代码)$/.test(l)) return `WG${sampleDate(seed, row, 'YYYYMMDD')}${String(sampleHash(seed) % 1000).padStart(3, '0')}`;
  if (/车牌/.test(l)) return `浙A${String(10_000 + (sampleHash(seed) % 89_999))}`;
  return `${l || f.name}${(sampleHash(seed) % 90) + 10}`;
}

/** The sample value of one field on one row, in the shape the server sends it. */
export function sampleValue(f: ValueFacts, seed: string, row: number): unknown {
  const s = `${seed}/${f.name}/${row}`;
  switch (f.kind) {
    case 'dict': {
      const entries = sampleDict(f.dict ?? f.name, f.label);
      return entries[(sampleHash(s) + row) % entries.length]?.value;
    }
    case 'remote': {
      const options = sampleOptions('');
      const first = options[(sampleHash(s) + row) % options.length]?.value;
      if (!f.multiple) return first;
      const second = options[(sampleHash(s) + row + 1) % options.length]?.value;
      return `${first},${second}`;
    }
    case 'city':
      return pick(CITY_CODES, s);
    case 'datetime':
      return sampleDate(s, row, f.timeFormat);
    case 'decimal': {
      const d = f.decimals ?? 2;
      const lo = f.min ?? 0;
      const hi = f.max ?? lo + 99_999;
      const v = lo + ((sampleHash(s) % 1_000_000) / 1_000_000) * Math.min(hi - lo, 99_999);
      return Number(v.toFixed(d));
    }
    case 'long': {
      if (holdsReference(f.name)) return Number(REFERENCE_IDS[(sampleHash(s) + row) % REFERENCE_IDS.length]);
      const lo = Math.ceil(f.min ?? 1);
      const hi = Math.floor(f.max ?? lo + 998);
      return lo + (sampleHash(s) % Math.max(1, hi - lo + 1));
    }
    case 'textarea':
      return row % 2 === 0 ? LONG_TEXT : LONG_TEXT.slice(0, 30);
    case 'editor':
      return `<p><strong>${pick(WASTES, s)}</strong>：${LONG_TEXT}</p>`;
    case 'file':
      return JSON.stringify([{ fileName: `${pick(WASTES, s)}检测报告.pdf`, filePath: `review/${sampleHash(s)}.pdf` }]);
    case 'image':
      return JSON.stringify([{ fileName: '现场照片.png', filePath: `review/${sampleHash(s)}.png` }]);
    default:
      if (holdsReference(f.name)) return REFERENCE_IDS[(sampleHash(s) + row) % REFERENCE_IDS.length];
      return sampleText(f, s, row);
  }
}

/** A value of the trigger that is not `value`: another dictionary entry, or another text. */
function otherThan(f: FieldModel | undefined, value: string): unknown {
  if (f?.kind === 'dict') return sampleDict(f.dict ?? f.name, f.label).find((e) => e.value !== value)?.value ?? '';
  if (f?.kind === 'long' || f?.kind === 'decimal') return Number(value) + 1;
  return `${value}-其他`;
}

/**
 * The list's rows. Row 0 (and every even row) meets each relation rule, so its controlled fields
 * show; odd rows do not. Optional fields stay empty on every fifth row, required ones never.
 */
export function sampleRows(model: ListPageModel, count = SAMPLE_ROWS): Row[] {
  const seed = model.componentName || String(model.viewId);
  const key = model.form.dialog.key;
  const fields = new Map(model.form.fields.map((f) => [f.name, f]));
  const facts = new Map<string, ValueFacts>();
  for (const c of model.columns) facts.set(c.name, factsOfColumn(c));
  for (const f of model.form.fields) facts.set(f.name, factsOfField(f));
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const row: Row = { [key]: 1001 + i };
    for (const f of facts.values()) {
      if (f.name === key) continue;
      const field = fields.get(f.name);
      const sparse = i % 5 === 4 && field && !field.required;
      row[f.name] = sparse ? null : sampleValue(f, seed, i);
      // The server sends a city's labels beside its code.
      if (f.kind === 'city') row[`${f.name}Fmt`] = sparse ? null : cityLabels(String(row[f.name]));
    }
    for (const f of model.form.fields)
      for (const rel of [f.showRelation, f.requiredRelation])
        if (rel) row[f.name] = i % 2 === 0 ? castLike(f, rel.value) : otherThan(fields.get(f.name), rel.value);
    rows.push(row);
  }
  return rows;
}

const castLike = (f: FieldModel, value: string): unknown => (f.kind === 'long' || f.kind === 'decimal' ? Number(value) : value);

/** The columns a chart reads from its data view, as its settings name them (empty: the data view decides). */
function columnsNamed(chart: ChartModel): { x?: string; series: string[]; name?: string; value?: string } {
  const names = (v: unknown): string[] =>
    Array.isArray(v)
      ? v.map(String).filter(Boolean)
      : typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [];
  const one = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const o = chart.options;
  return {
    x: one(o.xAxisData),
    series: [...names(o.yAxisData_bar), ...names(o.yAxisData_line)],
    name: one(o.seriesDataName),
    value: one(o.seriesDataValue),
  };
}

/** A data view's sample answer for the charts that read it: their columns, 12 rows of plausible figures. */
export function sampleDataView(screen: BigScreenModel | undefined, id: number): { columns: string[]; list: Row[] } {
  const charts = (screen?.layout ?? []).flatMap((item) => item.charts).filter((c) => c.dataViewId === id);
  const columns: string[] = [];
  const add = (c: string | undefined) => {
    if (c && !columns.includes(c)) columns.push(c);
  };
  let categories: readonly string[] = MONTHS;
  for (const chart of charts) {
    const named = columnsNamed(chart);
    add(named.x);
    add(named.name);
    for (const s of named.series) add(s);
    add(named.value);
    if (chart.kind === 'pie' || chart.kind === 'radar' || chart.kind === 'scrollList') categories = WASTES;
    if (chart.kind === 'cityTransaction') {
      categories = ['杭州市', '宁波市', '温州市', '嘉兴市', '湖州市', '绍兴市', '金华市', '台州市'];
      for (const c of ['city', 'amount', 'paid']) add(c);
    }
  }
  if (!columns.length) columns.push('名称', '处置量', '订单数');
  if (columns.length === 1) columns.push('数值');
  const list = categories.map((label, i) => {
    const row: Row = {};
    columns.forEach((c, j) => {
      row[c] = j === 0 ? label : Math.round(80 + (sampleHash(`${id}/${c}/${i}`) % 900) * (j === 1 ? 1 : 0.4));
    });
    return row;
  });
  return { columns, list };
}

/** What the review draws a page from: the definitions as the server answers them, and the pages' models. */
export interface SampleWorld {
  views: ReadonlyMap<number, unknown>;
  screens: ReadonlyMap<number, unknown>;
  /** The list model of each view that has one (the rows are drawn from it). */
  listOf(viewId: number): ListPageModel | undefined;
  screenModel?: BigScreenModel;
  /** The contract's addresses the provider answers. */
  urls: {
    viewDetail: string;
    screenDetail: string;
    dictMap: string;
    regionTree: string;
    dataView: string;
    dynamicQuery: string;
    preview: string;
  };
}

/** One record's sample, by the view's key. */
function recordOf(rows: Row[], key: string, id: unknown): Row | undefined {
  return rows.find((r) => String(r[key]) === String(id));
}

const NOT_SAVED = '预览不保存数据';

/** Ten-by-ten grey picture: what every sample image shows. */
const SAMPLE_IMAGE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#d9e3f0"/><path d="M10 70 L45 30 L70 55 L85 42 L110 70 Z" fill="#8fa8c8"/><circle cx="88" cy="22" r="9" fill="#f4c96b"/></svg>';

/**
 * The engine's data provider over the sample world: lists and records from sampleRows, dictionaries,
 * options, regions and data views from their samples; a save is refused (nothing is saved in a review).
 * `pending` counts the calls not yet answered.
 */
export function sampleProvider(world: SampleWorld, onCall?: (delta: 1 | -1) => void): DataProvider {
  const rowsCache = new Map<number, Row[]>();
  const rowsOf = (viewId: number): Row[] => {
    let rows = rowsCache.get(viewId);
    if (!rows) {
      const model = world.listOf(viewId);
      rows = model ? sampleRows(model) : [];
      rowsCache.set(viewId, rows);
    }
    return rows;
  };
  const answer = async <T>(f: () => T): Promise<T> => {
    onCall?.(1);
    try {
      await Promise.resolve();
      return f();
    } finally {
      onCall?.(-1);
    }
  };
  const refuse = (): Promise<never> =>
    answer(() => {
      throw new HttpError(NOT_SAVED, 0);
    });
  return {
    getList: ({ resource }) => answer(() => ({ rows: rowsOf(resource.viewId), total: SAMPLE_ROWS })),
    getOne: ({ resource, key, id }) =>
      answer(() => {
        const values = recordOf(rowsOf(resource.viewId), key, id);
        return values && { values };
      }),
    create: refuse,
    update: refuse,
    deleteMany: refuse,
    export: () => answer(() => false),
    import: refuse,
    preAdd: () => answer(() => undefined),
    groovy: refuse,
    custom: <T>(call: Parameters<DataProvider['custom']>[0]) =>
      answer((): T => {
        const q = call.query ?? {};
        const u = world.urls;
        const id = Number(q.id);
        switch (call.url) {
          case u.viewDetail: {
            const raw = world.views.get(id);
            if (raw === undefined) throw new HttpError(`视图 ${id} 不在本次评审的定义中`, 404);
            return raw as T;
          }
          case u.screenDetail: {
            const raw = world.screens.get(id);
            if (raw === undefined) throw new HttpError(`页面 ${id} 不在本次评审的定义中`, 404);
            return raw as T;
          }
          case u.dictMap: {
            const names = String(q.dictName ?? '')
              .split(',')
              .filter(Boolean);
            const labels = new Map<string, string>();
            for (const viewId of world.views.keys())
              for (const f of world.listOf(viewId)?.form.fields ?? []) if (f.dict && !labels.has(f.dict)) labels.set(f.dict, f.label);
            return Object.fromEntries(names.map((n) => [n, sampleDict(n, labels.get(n))])) as T;
          }
          case u.regionTree:
            return REGIONS as T;
          case u.dataView:
            return sampleDataView(world.screenModel, id) as T;
          case u.dynamicQuery:
            return { data: {} } as T;
          case u.preview:
            return new Blob([SAMPLE_IMAGE], { type: 'image/svg+xml' }) as T;
          default:
            if (call.method === 'post') throw new HttpError(NOT_SAVED, 0);
            return sampleOptions(call.url) as T;
        }
      }),
  };
}
