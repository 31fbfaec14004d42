import { sql } from 'kysely';
import { errorMessage } from '../../src/shared/error-catalogue.js';
import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { dictionaries } from '../lowcode/dictionaries.js';
import { optionLabelField, REGION_TREE_PATH, referenceTarget, sourceOf } from '../lowcode/reference-labels.js';
import { type RegionNames, regionNames } from '../lowcode/region-names.js';
import type { Row } from '../lowcode/rows.js';
import type { ViewField, ViewModel } from '../lowcode/view-model.js';
import { designedView } from '../lowcode/view-store.js';
import { type OfferedRecords, offered } from './references.js';

/**
 * An imported cell holds what the screen shows: a dictionary entry's label, a picked record's label (a
 * warehouse's, a contact's, a company's, a department's, a disposal process's, another view's record),
 * a region's names. Each is turned back into what the field stores, and an export writes them so. A label is looked for only among what the field offers the importing
 * user (the same scope as the form's options), so a name can never pick another company's record. An
 * id or a dictionary value is still accepted where no label matches. A label no option has, or one
 * several options share, is that row's problem, naming the column and the value.
 */

export type CellValue = string | number | boolean | null;
/** A cell read: the field's value (and, in `also`, other values of the record it sets), or why not. */
export type CellVerdict = { value: unknown; also?: Row } | { problem: string };
/** How an import reads the cells of one column. */
export type CellReader = (v: CellValue) => CellVerdict;

const ID_TEXT = /^\d{1,18}$/;
/** Labels looked up per statement. */
const LOOKUP_BATCH = 1000;

const unknown = (f: ViewField, value: string): CellVerdict => ({
  problem: errorMessage('IMPORT_LABEL_UNKNOWN', { label: f.label, value }),
});
const ambiguous = (f: ViewField, value: string): CellVerdict => ({
  problem: errorMessage('IMPORT_LABEL_AMBIGUOUS', { label: f.label, value }),
});

/** The parts of a cell: a multiple choice's values are separated by commas, as the export joins them. */
const partsOf = (v: CellValue, several: boolean): string[] => {
  const text = String(v).trim();
  return (several ? text.split(/[,，]/) : [text]).map((s) => s.trim()).filter((s) => s !== '');
};

/** Reads each part; the first problem stands for the cell. */
function readParts(parts: string[], read: (part: string) => CellVerdict): CellVerdict {
  const values: string[] = [];
  for (const p of parts) {
    const out = read(p);
    if ('problem' in out) return out;
    values.push(String(out.value));
  }
  return { value: values.join(',') };
}

function dictReader(f: ViewField, labels: Map<string, string>): CellReader {
  const byLabel = new Map<string, string[]>();
  for (const [value, label] of labels) byLabel.set(label, [...(byLabel.get(label) ?? []), value]);
  return (v) => {
    if (v === null || v === '') return { value: v };
    return readParts(partsOf(v, true), (part) => {
      const values = byLabel.get(part);
      if (values?.length === 1) return { value: values[0] };
      if (values) return ambiguous(f, part);
      return labels.has(part) ? { value: part } : unknown(f, part);
    });
  };
}

/** The offered records whose label is one of `labels`: label → their ids. */
async function recordsLabelled(ctx: AppContext, source: OfferedRecords, labels: string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (!source.labelColumn) return out;
  const label = sql.ref(`t.${source.labelColumn}`);
  for (let i = 0; i < labels.length; i += LOOKUP_BATCH) {
    const batch = labels.slice(i, i + LOOKUP_BATCH);
    const res = await sql<{ id: number; label: string }>`select t.id, ${label}::text as label from ${sql.table(source.table)} as t
      where ${label}::text in (${sql.join(batch)}) and ${source.condition}`.execute(ctx.db);
    for (const r of res.rows) out.set(r.label, [...(out.get(r.label) ?? []), Number(r.id)]);
  }
  return out;
}

function referenceReader(f: ViewField, ids: Map<string, number[]>): CellReader {
  return (v) => {
    if (v === null || v === '') return { value: v };
    if (typeof v === 'number' && !f.multiple) return { value: v };
    return readParts(partsOf(v, f.multiple), (part) => {
      const found = ids.get(part);
      if (found?.length === 1) return { value: found[0] };
      if (found && found.length > 1) return ambiguous(f, part);
      return ID_TEXT.test(part) ? { value: part } : unknown(f, part);
    });
  };
}

/** Whether a field picks a region from the region tree (its value a region code). */
const picksRegion = (view: ViewModel, f: ViewField) => !f.city && f.remote && sourceOf(view, f) === REGION_TREE_PATH;

/**
 * A city cascader's cell: the region's names (or its codes); it stores the codes of the path, and
 * the names beside them as `{name}Fmt`, as the form does. A region tree's cell stores the one code.
 */
function regionReader(f: ViewField, regions: RegionNames): CellReader {
  return (v) => {
    if (v === null || v === '') return { value: v };
    const text = String(v);
    const codes = regions.read(text);
    if (codes === 'unknown') return unknown(f, text);
    if (codes === 'ambiguous') return ambiguous(f, text);
    const last = codes.at(-1) as string;
    if (!f.city) return { value: last };
    return { value: codes.join(','), also: { [`${f.name}Fmt`]: regions.labelOf(last) ?? null } };
  };
}

/**
 * A reader for each column of an import (undefined where the cell is taken as typed). `columns` are the
 * sheet's columns' fields, `rows` its cells, whose distinct labels are looked up once per column.
 */
export async function cellReaders(
  ctx: AppContext,
  view: ViewModel,
  user: SessionUser,
  columns: (ViewField | undefined)[],
  rows: CellValue[][],
): Promise<(CellReader | undefined)[]> {
  const fields = columns.filter((f): f is ViewField => !!f && !f.system);
  const dicts = await dictionaries(ctx, fields);
  const regions = fields.some((f) => f.city || picksRegion(view, f)) ? await regionNames(ctx) : undefined;
  return Promise.all(
    columns.map(async (f, i) => {
      if (!f || f.system) return undefined;
      if (regions && (f.city || picksRegion(view, f))) return regionReader(f, regions);
      if (f.dict) {
        const labels = dicts.get(f.dict);
        return labels ? dictReader(f, labels) : undefined;
      }
      if (!f.remote) return undefined;
      const source = await offered(ctx, view, f, user);
      if (!source) return undefined;
      const labels = new Set<string>();
      for (const cells of rows) {
        const v = cells[i];
        if (typeof v === 'string' && v !== '') for (const p of partsOf(v, f.multiple)) labels.add(p);
      }
      return referenceReader(f, await recordsLabelled(ctx, source, [...labels]));
    }),
  );
}

/** Most choices a template offers in one column's drop-down. */
const CHOICES_MAX = 1000;

/**
 * The labels an import template offers in each field's drop-down: a dictionary's labels in its order,
 * or the labels of the records the field offers the user, in label order (each label once). Undefined
 * for a field that is typed.
 */
export async function fieldChoices(
  ctx: AppContext,
  view: ViewModel,
  user: SessionUser,
  fields: ViewField[],
): Promise<(string[] | undefined)[]> {
  const dicts = await dictionaries(ctx, fields);
  return Promise.all(
    fields.map(async (f) => {
      if (f.system) return undefined;
      if (f.dict) {
        const labels = dicts.get(f.dict);
        return labels ? [...new Set(labels.values())] : undefined;
      }
      if (!f.remote) return undefined;
      const source = await offered(ctx, view, f, user);
      if (!source?.labelColumn) return undefined;
      const label = sql.ref(`t.${source.labelColumn}`);
      const res = await sql<{ label: string }>`select distinct ${label}::text as label from ${sql.table(source.table)} as t
        where ${label} is not null and ${label}::text <> '' and ${source.condition} order by 1 limit ${CHOICES_MAX}`.execute(ctx.db);
      return res.rows.map((r) => r.label);
    }),
  );
}

/** A cell of an export: what the list shows for the field's stored value, given its row. */
export type CellWriter = (v: unknown, row: Row) => unknown;

/**
 * How an export writes each field whose stored value is a code or an id: a region by its names, a
 * picked record by its label (also several picked, joined by commas as the list shows them). Labels are
 * read as the list reads them, whatever the option list offers the user now. Undefined where the value
 * is written as stored (dictionaries are written by exportCell).
 */
export async function cellWriters(ctx: AppContext, view: ViewModel, fields: ViewField[], rows: Row[]): Promise<(CellWriter | undefined)[]> {
  const regions = fields.some((f) => f.city || picksRegion(view, f)) ? await regionNames(ctx) : undefined;
  return Promise.all(
    fields.map(async (f): Promise<CellWriter | undefined> => {
      if (f.system) return undefined;
      // The label the list answers beside the stored value, when it does.
      const given = (row: Row) => {
        const fmt = row[`${f.name}Fmt`];
        return typeof fmt === 'string' && fmt !== '' ? fmt : undefined;
      };
      if (regions && f.city) return (v, row) => given(row) ?? regions.labelOf(String(v).split(',').at(-1) ?? '') ?? v;
      if (regions && picksRegion(view, f)) return (v) => regions.labelOf(String(v)) ?? v;
      const target = f.remote ? referenceTarget(view, f) : undefined;
      if (!target) return undefined;
      const other = target.viewId === undefined ? undefined : await designedView(ctx, target.viewId).catch(() => null);
      const table = target.viewId === undefined ? target.table : `lc_view_${target.viewId}`;
      const labelColumn = target.viewId === undefined ? target.labelColumn : other && optionLabelField(other)?.column;
      if (!labelColumn) return undefined;
      // Looked up: only the ids whose label the list did not answer (several picked, or no `{name}Fmt`).
      const ids = new Set<number>();
      for (const r of rows.filter((row) => given(row) === undefined))
        for (const part of partsOf((r[f.name] ?? '') as CellValue, f.multiple)) if (ID_TEXT.test(part)) ids.add(Number(part));
      const labels = new Map<string, string>();
      const all = [...ids];
      const label = sql.ref(`t.${labelColumn}`);
      for (let i = 0; i < all.length; i += LOOKUP_BATCH) {
        const batch = all.slice(i, i + LOOKUP_BATCH).map((id) => sql`${id}::bigint`);
        const res = await sql<{ id: number; label: string | null }>`select t.id, ${label}::text as label from ${sql.table(table)} as t
          where t.id in (${sql.join(batch)})`.execute(ctx.db);
        for (const r of res.rows) if (r.label) labels.set(String(r.id), r.label);
      }
      return (v, row) =>
        given(row) ??
        partsOf(v as CellValue, f.multiple)
          .map((part) => labels.get(part) ?? part)
          .join(',');
    }),
  );
}
