import type { RowScope } from '../access/rows.js';
import type { Row } from './record-input.js';
import type { ViewField, ViewModel } from './view-model.js';

/**
 * What a list read asks for and what answers it: the parsed list query (filters, order, page), the
 * rows a write changed, and the ListReader the callers read lists through. Every other file of list
 * reading imports these; this file imports none of them.
 */

/** A query parameter as the request gives it. */
export type QueryValue = string | string[] | undefined;

/** One filter of a list query: a declared field's (or the id's, or a formatted column's) column and its values. */
export interface ListFilter {
  field: ViewField | undefined;
  column: string;
  values: string[];
}

/** One key of a list's order. */
export interface SortTerm {
  column: string;
  dir: 'asc' | 'desc';
}

/** A list query read against a definition (see parseListQuery): only declared columns reach SQL. */
export interface ListQuery {
  filters: ListFilter[];
  startTime: string | undefined;
  endTime: string | undefined;
  sort: SortTerm[];
  page: number;
  size: number;
  /** The records the caller may see; undefined: every record. */
  scope: RowScope | undefined;
  /** Cache keys: scope, filters and order (which rows, in which order), scope and filters (the count), filters alone. */
  orderKey: string;
  countKey: string;
  filterKey: string;
}

/** A listed row's sort key: its order's values as exact text (ids may come as numbers). */
export type SortKey = readonly (string | number | null)[];

/** Rows of a list from some offset, in its order, with their sort keys. */
export interface RowBlock {
  rows: Row[];
  keys: SortKey[];
  /** Fewer rows than asked for: the list ends in them. */
  toEnd: boolean;
}

/** One record as the row index holds it: the row as the list shows it, its columns (row_to_json), its sort keys. */
export interface IndexedRow {
  id: number;
  row: Row;
  raw: Record<string, unknown>;
  keys: Record<string, string | null>;
}

/** The rows a write changed: as they were (gone) and as they are (come). */
export interface WrittenRows {
  gone: readonly IndexedRow[];
  come: readonly IndexedRow[];
}

/**
 * How a server reads the records of its views, chosen once from its settings: from the database, or
 * from the views' rows held in memory with the database behind them. Pages go through the list cache
 * either way; the other reads are the database's.
 */
export interface ListReader {
  /** One page of the list, as the JSON text of `{ content, totalElements }`. */
  page(view: ViewModel, q: ListQuery): Promise<string>;
  /** The first `limit` rows of the query, in its order, as the list shows them (an export). */
  rows(view: ViewModel, q: ListQuery, limit: number): Promise<Row[]>;
  /** The query's first page of records as the options of a linked select: the `label` column's value and the id. */
  options(view: ViewModel, q: ListQuery, label: string): Promise<{ label: string | null; value: number }[]>;
  /** The records of `ids` as the list shows them (those that exist), in no particular order. */
  records(view: ViewModel, ids: readonly number[]): Promise<Row[]>;
  /** The record as the list shows it, undefined when there is none within `scope`. */
  record(view: ViewModel, id: number, scope: RowScope | undefined): Promise<Row | undefined>;
}
