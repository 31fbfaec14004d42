/**
 * The checks a reviewer would otherwise make by eye, run on the page as drawn. Each warning names
 * the field (or column, dialog, chart) it is about; the caller adds the picture.
 */
import type { ReviewCheckContext as CheckContext, ReviewWarning as PageWarning } from '../shared/review-page';
import { REFERENCE_IDS } from './sample-data';

/** A column under the fixed 操作 column is judged at this width, the narrowest staff use. */
export const NARROW_WIDTH = 1366;

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
const visible = (el: Element) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
/** Pixels two spans share. */
const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** The label of the form item an element is in. */
function fieldLabel(el: Element): string {
  const item = el.closest('.ant-form-item');
  const label = item?.querySelector('.ant-form-item-label label');
  return text(label) || text(item?.querySelector('label')) || '';
}

function columnsUnderOperation(out: PageWarning[]) {
  for (const table of document.querySelectorAll('.engine-list-table')) {
    const head = table.querySelector('.engine-head-row');
    const op = head?.querySelector('.engine-cell-operation');
    if (!head || !op) continue;
    const o = op.getBoundingClientRect();
    const scroller = table.querySelector('.engine-table-scroll')?.getBoundingClientRect();
    for (const cell of head.querySelectorAll('[role=columnheader]')) {
      if (cell === op) continue;
      const r = cell.getBoundingClientRect();
      // Only what the user sees before scrolling: a column past the table's right edge is a scroll away, not hidden.
      const seen = scroller ? overlap(r.left, r.right, scroller.left, scroller.right) : r.width;
      const covered = overlap(r.left, r.right, o.left, o.right);
      if (seen > 0 && covered > 4)
        out.push({
          check: 'column-under-operation',
          field: text(cell),
          message: `列「${text(cell)}」有 ${Math.round(covered)} px 被固定的「操作」列遮住`,
        });
    }
  }
}

function formsWiderThanDialogs(out: PageWarning[], scope: ParentNode) {
  const boxes = [...scope.querySelectorAll('.ant-modal-body'), ...scope.querySelectorAll('[data-page-kind=form] .ant-card-body')];
  for (const body of boxes) {
    if (!visible(body)) continue;
    const b = body.getBoundingClientRect();
    const title =
      text(body.closest('.ant-modal')?.querySelector('.ant-modal-title')) ||
      text(body.closest('.ant-card')?.querySelector('.ant-card-head-title'));
    let named = false;
    for (const item of body.querySelectorAll('.ant-form-item')) {
      const r = item.getBoundingClientRect();
      if (r.right > b.right + 1) {
        named = true;
        out.push({
          check: 'form-wider-than-dialog',
          field: fieldLabel(item) || title,
          message: `「${fieldLabel(item) || title}」超出${body.closest('.ant-modal') ? '对话框' : '页面'}右边 ${Math.round(r.right - b.right)} px`,
        });
      }
    }
    const form = body.querySelector('.ant-form')?.getBoundingClientRect();
    if (!named && form && form.right > b.right + 1)
      out.push({
        check: 'form-wider-than-dialog',
        field: title,
        message: `表单比「${title}」宽 ${Math.round(form.right - b.right)} px`,
      });
  }
}

function labelsCutOff(out: PageWarning[], scope: ParentNode) {
  for (const label of scope.querySelectorAll<HTMLElement>('.ant-form-item-label > label')) {
    if (!visible(label)) continue;
    // The text as laid out: wider than its box (clipped), or wrapped onto more lines than the box is high.
    const range = document.createRange();
    range.selectNodeContents(label);
    const textBox = range.getBoundingClientRect();
    const box = label.getBoundingClientRect();
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    if (label.scrollWidth > label.clientWidth + 1 || textBox.right > box.right + 1)
      out.push({ check: 'label-cut-off', field: text(label), message: `标签「${text(label)}」显示不全` });
    else if (textBox.height > box.height + 1)
      out.push({ check: 'label-cut-off', field: text(label), message: `标签「${text(label)}」被挤成 ${lines} 行，超出了它的位置` });
  }
  for (const cell of scope.querySelectorAll('.engine-head-row [role=columnheader]')) {
    const el = cell as HTMLElement;
    if (visible(el) && el.scrollWidth > el.clientWidth + 1)
      out.push({ check: 'label-cut-off', field: text(el), message: `列标题「${text(el)}」显示不全` });
  }
}

const IDS = new Set(REFERENCE_IDS);
/** A text that is nothing but picked records' ids (one, or a list). */
const isBareId = (s: string) => !!s && s.split(/[,，、\s]+/).every((part) => IDS.has(part));

function bareIds(out: PageWarning[], scope: ParentNode) {
  const seen = new Set<string>();
  const add = (field: string, where: string, value: string) => {
    const key = `${field}\u0000${where}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ check: 'bare-id', field, message: `${where}「${field}」显示的是编号 ${value}，不是名称` });
  };
  for (const table of scope.querySelectorAll('.engine-list-table')) {
    const heads = [...table.querySelectorAll('.engine-head-row [role=columnheader]')].map(text);
    for (const row of table.querySelectorAll('.engine-row')) {
      [...row.querySelectorAll('[role=cell]')].forEach((cell, i) => {
        const t = text(cell);
        if (isBareId(t)) add(heads[i] ?? '', '列', t);
      });
    }
  }
  const controls = scope.querySelectorAll(
    '.ant-form-item .ant-select-selection-item, .ant-form-item .ant-select-content, .ant-form-item .ant-select-selection-wrap, .ant-form-item .ant-descriptions-item-content, .ant-form-item input, .ant-form-item .ant-form-text',
  );
  for (const el of controls) {
    const t = el instanceof HTMLInputElement ? el.value.trim() : text(el);
    if (isBareId(t)) add(fieldLabel(el), '字段', t);
  }
  for (const item of scope.querySelectorAll('.ant-descriptions-item')) {
    const t = text(item.querySelector('.ant-descriptions-item-content'));
    if (isBareId(t)) add(text(item.querySelector('.ant-descriptions-item-label')), '字段', t);
  }
}

/** The parts of an ECharts instance the axis check reads (internal, stable across 5 and 6). */
interface AxisLike {
  type: string;
  scale: { getOrdinalMeta?: () => { categories: unknown[] } };
  getViewLabels(): unknown[];
  getExtent(): [number, number];
  model: { get(path: string | string[]): unknown };
}
interface ChartLike {
  getModel(): { getComponent(type: string, index: number): { axis?: AxisLike } | undefined };
}

async function chartAxes(out: PageWarning[]) {
  const charts = document.querySelectorAll('[_echarts_instance_]');
  if (!charts.length) return;
  const { getInstanceByDom } = await import('echarts/core');
  const measure = document.createElement('canvas').getContext('2d');
  for (const dom of charts) {
    const chart = getInstanceByDom(dom as HTMLElement) as unknown as ChartLike | undefined;
    if (!chart) continue;
    const item = dom.closest('[data-item]');
    const name = text(item?.querySelector('.wg-screen-item-title')) || `图表 ${item?.getAttribute('data-item') ?? ''}`.trim();
    for (const type of ['xAxis', 'yAxis']) {
      for (let i = 0; i < 4; i++) {
        const axis = chart.getModel().getComponent(type, i)?.axis;
        if (!axis) break;
        if (axis.type !== 'category') continue;
        const categories = axis.scale.getOrdinalMeta?.().categories.map(String) ?? [];
        const shown = axis.getViewLabels().length;
        const side = type === 'xAxis' ? '横轴' : '纵轴';
        if (categories.length && shown < categories.length) {
          out.push({
            check: 'chart-axis-labels',
            field: name,
            message: `「${name}」的${side}标签省略了 ${categories.length - shown} 个（共 ${categories.length} 个）`,
          });
          continue;
        }
        const rotate = Number(axis.model.get(['axisLabel', 'rotate']) ?? 0);
        if (type !== 'xAxis' || rotate || !measure || categories.length < 2) continue;
        const size = Number(axis.model.get(['axisLabel', 'fontSize']) ?? 12);
        measure.font = `${size}px sans-serif`;
        const [a, b] = axis.getExtent();
        const band = Math.abs(b - a) / categories.length;
        const widest = Math.max(...categories.map((c) => measure.measureText(c).width));
        if (widest > band)
          out.push({
            check: 'chart-axis-labels',
            field: name,
            message: `「${name}」的${side}标签相互重叠（最宽 ${Math.round(widest)} px，每格 ${Math.round(band)} px）`,
          });
      }
    }
  }
}

function tallDialogs(out: PageWarning[], ctx: CheckContext) {
  for (const content of document.querySelectorAll('.ant-modal')) {
    if (!visible(content)) continue;
    const h = content.getBoundingClientRect().height;
    if (h > ctx.height) {
      const title = text(content.querySelector('.ant-modal-title'));
      out.push({
        check: 'dialog-taller-than-viewport',
        field: title,
        message: `对话框「${title}」高 ${Math.round(h)} px，超过窗口的 ${ctx.height} px`,
      });
    }
  }
}

/** Every warning of the page as it is drawn now, in a stable order. */
export async function checkPage(ctx: CheckContext): Promise<PageWarning[]> {
  const out: PageWarning[] = [];
  // With a dialog open, only the dialog is judged: the page under it was judged on its own picture.
  const dialog = [...document.querySelectorAll('.ant-modal-wrap')].find(visible);
  const scope: ParentNode = dialog ?? document;
  if (!dialog && ctx.width <= NARROW_WIDTH) columnsUnderOperation(out);
  formsWiderThanDialogs(out, scope);
  labelsCutOff(out, scope);
  bareIds(out, scope);
  await chartAxes(out);
  tallDialogs(out, ctx);
  return out;
}
