import type { CSSProperties } from 'react';
import {
  backgroundProblem,
  type CanvasModel,
  IMAGE_ADDRESS,
  isDrawableImageUrl,
  type LayoutItemModel,
  NUMBER_TEXT,
} from '../../model/index.js';

/**
 * Where things sit on a big screen's canvas, in design pixels (the canvas is then scaled as a whole).
 *
 * The layout area is the canvas below the header. It is a grid of `defaultCol` columns and
 * `2 × defaultH` rows, with `margin` between cells and around the edge, so that a container of the
 * default size is a quarter of the width and half of the height. An item spans `w × h` cells from
 * column `x`, row `y`.
 */

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Grid {
  cols: number;
  rows: number;
  margin: number;
  colWidth: number;
  rowHeight: number;
}

export function headerHeightOf(canvas: CanvasModel): number {
  return Math.max(0, canvas.header.marginTop) + Math.max(0, canvas.header.height);
}

export function gridOf(canvas: CanvasModel): Grid {
  const { width, height, defaultCol, defaultH, margin } = canvas.basic;
  const area = Math.max(0, height - headerHeightOf(canvas));
  const cols = Math.max(1, defaultCol);
  const rows = Math.max(1, 2 * defaultH);
  const m = Math.max(0, margin);
  return {
    cols,
    rows,
    margin: m,
    colWidth: Math.max(1, (width - m * (cols + 1)) / cols),
    rowHeight: Math.max(1, (area - m * (rows + 1)) / rows),
  };
}

/** An item's box in the layout area; an absolute container sits at its own top and left instead. */
export function itemRect(item: Pick<LayoutItemModel, 'x' | 'y' | 'w' | 'h' | 'container'>, grid: Grid): Rect {
  const { margin: m, colWidth, rowHeight } = grid;
  const w = Math.max(1, item.w);
  const h = Math.max(1, item.h);
  const rect = {
    left: m + Math.max(0, item.x) * (colWidth + m),
    top: m + Math.max(0, item.y) * (rowHeight + m),
    width: w * colWidth + (w - 1) * m,
    height: h * rowHeight + (h - 1) * m,
  };
  const abs = item.container.super.absolute;
  return abs.enabled ? { ...rect, left: abs.left, top: abs.top } : rect;
}

/** The scale that fits a design size into a box, keeping the aspect ratio, and the offsets that centre it. */
export function fitCanvas(box: { width: number; height: number }, design: { width: number; height: number }) {
  const scale = Math.max(0.01, Math.min(box.width / design.width, box.height / design.height));
  return { scale, left: (box.width - design.width * scale) / 2, top: (box.height - design.height * scale) / 2 };
}

const round = (n: number) => Math.round(n * 100) / 100;

export const rectStyle = (r: Rect): CSSProperties => ({
  left: round(r.left),
  top: round(r.top),
  width: round(r.width),
  height: round(r.height),
});

// ----- reading loose settings -----

export const recordOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export function textOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) ? n : undefined;
}

/** true/false, 1/0, "true"/"false", "1"/"0", or an object with `show`. */
export function flagOf(v: unknown, fallback: boolean): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true') return true;
  if (v === 0 || v === '0' || v === 'false') return false;
  if (v && typeof v === 'object' && 'show' in v) return flagOf((v as { show: unknown }).show, fallback);
  return fallback;
}

/** A length: numbers are pixels, text is CSS as written ("0 16px", "50%"). */
export function lengthOf(v: unknown): number | string | undefined {
  const n = typeof v === 'number' ? v : undefined;
  if (n !== undefined) return Number.isFinite(n) ? n : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  return NUMBER_TEXT.test(v) ? Number(v) : v.trim();
}

/**
 * An image address as a CSS `url("…")`, or `none` when the app may not draw from it (the model's
 * isDrawableImageUrl: https or a path of the app, no control character). Quotes, parentheses and
 * backslashes are escaped, so that no address ends the string it is placed in.
 */
export function cssUrl(src: string): string {
  return isDrawableImageUrl(src) ? `url("${src.replace(/["'()\\]/g, (c) => `\\${c}`)}")` : 'none';
}

/**
 * A setting drawn as a CSS `background`: an image address (IMAGE_ADDRESS) as its cssUrl, never as
 * written; a colour or gradient as written unless it would load something (the model's
 * backgroundProblem); undefined for what the app may not draw.
 */
export function cssBackground(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (IMAGE_ADDRESS.test(text)) return isDrawableImageUrl(text) ? cssUrl(text) : undefined;
  return backgroundProblem(text) ? undefined : text;
}

/** A background given as a colour or as an image address (IMAGE_ADDRESS tells them apart); nothing for one the app may not draw. */
export function backgroundOf(v: unknown): CSSProperties {
  const text = textOf(v);
  if (!text) return {};
  if (IMAGE_ADDRESS.test(text))
    return isDrawableImageUrl(text) ? { backgroundImage: cssUrl(text), backgroundSize: 'cover', backgroundPosition: 'center' } : {};
  const background = cssBackground(text);
  return background ? { background } : {};
}
