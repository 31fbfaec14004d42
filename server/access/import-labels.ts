import { sql } from 'kysely';
import { errorMessage } from '../../src/shared/error-catalogue.js';
import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { dictionaries } from '../lowcode/dictionaries.js';
import type { ViewField, ViewModel } from '../lowcode/view-model.js';
import { type OfferedRecords, offered } from './references.js';

/**
 * An imported cell holds what the screen shows: a dictionary entry's label, a picked record's label (a
 * warehouse's, a contact's, a company's, a department's, another view's record). Each is turned back
 * into what the field stores. A label is looked for only among what the field offers the importing
 * user (the same scope as the form's options), so a name can never pick another company's record. An
 * id or a dictionary value is still accepted where no label matches. A label no option has, or one
 * several options share, is that row's problem, naming the column and the value.
 */

export type CellValue = string | number | boolean | null;
export type CellVerdict = { value: unknown } | { problem: string };
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
  return Promise.all(
    columns.map(async (f, i) => {
      if (!f || f.system) return undefined;
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
