import { isDateOnlyText, normalizeDateTime } from '../../src/model/index.js';
import type { RowTest } from '../access/rows.js';
import type { ListFilter, ListQuery } from './list-types.js';

/**
 * A list query's filters and scope tested in JavaScript, on a row's columns as row_to_json gives them:
 * the same answer as the database's condition (see matchExpression), or undefined where it cannot be
 * told here.
 */

/** A timestamp as row_to_json gives it, as 'YYYY-MM-DD HH:mm:ss[.ffffff]' (text order is time order), or undefined. */
export function jsonTime(v: unknown): string | null | undefined {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?$/.test(v) ? v.replace('T', ' ') : undefined;
}

/** 'YYYY-MM-DD 00:00:00' of the day after the day of `t` ('YYYY-MM-DD …'). */
function nextDay(t: string): string {
  const d = new Date(Date.UTC(Number(t.slice(0, 4)), Number(t.slice(5, 7)) - 1, Number(t.slice(8, 10)) + 1));
  return `${d.toISOString().slice(0, 10)} 00:00:00`;
}

/** A timestamp already read by jsonTime (see MatcherOptions.plainTimes); anything else cannot be told. */
const plainTime = (v: unknown): string | null | undefined => (v === null || v === undefined ? null : typeof v === 'string' ? v : undefined);

/** condition() for a time column, in JavaScript: the same bounds, compared as text. */
function timeTest(column: string, values: string[], time: typeof jsonTime): RowTest | undefined {
  const times = values.map((v) => ({ t: normalizeDateTime(v), dateOnly: isDateOnlyText(v) }));
  if (times.some((x) => !x.t)) return undefined;
  const [a, b] = times as { t: string; dateOnly: boolean }[];
  const inRange = (from: string, to: string, toIncluded: boolean) => (v: string) => v >= from && (toIncluded ? v <= to : v < to);
  const ranges =
    a && b && times.length === 2
      ? [inRange(a.t, b.dateOnly ? `${b.t.slice(0, 10)} 23:59:59.999999` : b.t, true)]
      : (times as { t: string; dateOnly: boolean }[]).map(({ t, dateOnly }) =>
          dateOnly ? inRange(t, nextDay(t), false) : (v: string) => v === t,
        );
  return (row) => {
    const v = time(row[column]);
    return v === undefined ? undefined : v !== null && ranges.some((r) => r(v));
  };
}

/**
 * Characters that no case mapping changes or produces: ASCII digits, punctuation and space, CJK
 * punctuation and ideographs, full-width digits. A text search for such text matches exactly where the
 * text occurs, whatever the locale folds (lower() turns a cased letter only into letters and marks).
 */
const CASELESS = /^[\u0020-\u0040\u005b-\u0060\u007b-\u007e\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff10-\uff19]+$/;

/**
 * A filter that rowMatcher tests as a text search (the cell's text holds `text`), as its column and
 * text; undefined for any other filter.
 */
export function textSearch(f: ListFilter): { column: string; text: string } | undefined {
  const field = f.field;
  if (!field || f.column === 'id' || field.dataType === 'datetime' || field.multiple) return undefined;
  if (field.dataType === 'long' || field.dataType === 'decimal' || field.city || field.exact || f.values.length !== 1) return undefined;
  const text = f.values[0] as string;
  return CASELESS.test(text) ? { column: f.column, text } : undefined;
}

/**
 * The same test as matchExpression, in JavaScript, when every condition of the query is equality with
 * text (dictionary values, options), a time range, a region prefix or a text search for text without
 * cased letters: `row` holds the row's columns as row_to_json gives them. Undefined for any other query
 * (numbers, text search for letters, several values per cell, ids).
 */
export function rowMatcher(q: ListQuery, options: MatcherOptions = {}): RowTest | undefined {
  const tests: RowTest[] = [];
  const time = options.plainTimes ? plainTime : jsonTime;
  if (q.scope && options.scope !== false) {
    if (!q.scope.test) return undefined;
    tests.push(q.scope.test);
  }
  if (q.startTime) {
    const from = q.startTime;
    tests.push((row) => {
      const v = time(row.create_time);
      return v === undefined ? undefined : v !== null && v >= from;
    });
  }
  if (q.endTime) {
    const to = q.endTime;
    tests.push((row) => {
      const v = time(row.create_time);
      return v === undefined ? undefined : v !== null && v <= to;
    });
  }
  for (const f of q.filters) {
    const field = f.field;
    if (!field || f.column === 'id') return undefined;
    if (field.dataType === 'datetime') {
      const test = timeTest(f.column, f.values, time);
      if (!test) return undefined;
      tests.push(test);
      continue;
    }
    if (field.multiple || field.dataType === 'long' || field.dataType === 'decimal') return undefined;
    const values = f.values;
    const text = (row: Record<string, unknown>) => {
      const v = row[f.column];
      // A null cell matches nothing; a cell that is not text is not told here.
      return v === null || v === undefined ? null : typeof v === 'string' ? v : undefined;
    };
    const one = values[0] as string;
    if (values.length === 1 && field.city) {
      // like 'v%': LIKE compares characters exactly.
      tests.push((row) => {
        const v = text(row);
        return v === undefined ? undefined : v === null ? false : v.startsWith(one);
      });
    } else if (values.length === 1 && !field.exact) {
      // ilike '%v%' folds case as the database's locale does; a text without cased letters is the same folded.
      if (!textSearch(f)) return undefined;
      tests.push((row) => {
        const v = text(row);
        return v === undefined ? undefined : v === null ? false : v.includes(one);
      });
    } else {
      // condition(): `in` for several values, `=` for one; a null cell matches neither.
      tests.push((row) => {
        const v = text(row);
        return v === undefined ? undefined : v !== null && values.includes(v);
      });
    }
  }
  if (tests.length === 1) return tests[0];
  // A row some test cannot tell still fails when another test rejects it.
  return (row) => {
    let unknown = false;
    for (const t of tests) {
      const r = t(row);
      if (r === false) return false;
      if (r === undefined) unknown = true;
    }
    return unknown ? undefined : true;
  };
}

export interface MatcherOptions {
  /** False: the scope is left out (the caller tests it apart). */
  scope?: boolean;
  /** Time columns hold jsonTime's text already (the row index reads them once). */
  plainTimes?: boolean;
}

/** Each cached filter's JavaScript test (null: none), made once: a write asks for the filters of the scopes its rows are in. */
const tests = new WeakMap<object, RowTest | null>();

/** rowMatcher of a query, made once per query object. */
export function testOf(q: ListQuery): RowTest | undefined {
  let test = tests.get(q);
  if (test === undefined) {
    test = rowMatcher(q) ?? null;
    tests.set(q, test);
  }
  return test ?? undefined;
}

/**
 * The group of a cached filter (see ListCache): its scope's key, when the scope and the whole filter are
 * told in JavaScript, so that a write judges the filters of a scope none of its rows is in together.
 */
export function writeGroupOf(filter: unknown): string | undefined {
  const q = filter as ListQuery;
  return q.scope?.test && testOf(q) ? q.scope.key : undefined;
}
