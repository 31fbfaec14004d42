/**
 * Field shapes the low-code resources share: the designs' common fields (name, menu, status, version),
 * the `{ status, message, … }` answers of their writes, and the ids of their deletes.
 */
import { z } from 'zod';
import type { ErrorCode } from '../shared/error-catalogue.js';
import { type CallSpec, call, write } from './define.js';
import { boundedInt, dbId, INT4_MAX, pageOf } from './fields.js';
import { pageQueryDefaults } from './paging.js';

/** A view, screen or data-view id: a positive PostgreSQL integer. */
export const lowcodeId = dbId;

/** A menu id of a form: blank is none. */
export const nullableMenuId = z.preprocess((v) => (v === '' ? null : v), boundedInt(0, INT4_MAX).nullable().optional());
/** A design's status: 0 or 1. */
export const status01 = z.coerce.number().int().min(0, 'status 只能是 0 或 1').max(1, 'status 只能是 0 或 1');
/** A design's name. */
export const designName = z.string().trim().min(1, '名称不能为空').max(255, '名称不能超过255个字符');
/** The version a save started from: when given and another save came first, the save answers 409. */
export const versionField = boundedInt(0, INT4_MAX).optional();

/**
 * The ids of a delete: `[1,2]`, `{ids:[…]}`, `{id}` or `"1,2"` in the body, or `?id=` / `?ids=` in the
 * query; the handler reads them all (and refuses none given).
 */
export const deleteIds = z.unknown();

/** The answer of a write: `{ status, message }`. */
export const done = z.object({ status: z.number(), message: z.string() });
/** The answer of an add: `{ status, message, id }`. */
export const added = done.extend({ id: z.number() });
/** The answer of a save of a design: `{ status, message, version }`. */
export const saved = done.extend({ version: z.number() });

/**
 * What a call writing through a business view (the designed view behind 处置订单, 入库 or 询价) may refuse
 * when that view is not named, missing or not designed; a record's own problems are INVALID_INPUT with `errors`.
 */
export const BUSINESS_VIEW_ERRORS = ['BUSINESS_VIEW_NOT_FOUND', 'VIEW_NOT_FOUND', 'VIEW_DEFINITION_BROKEN', 'VIEW_NOT_DESIGNED'] as const;

/** A design's stored times, as the wire writes them. */
export const designTimes = { createTime: z.string().nullable(), updateTime: z.string().nullable() };

/** A designer's paged list of definitions, for accounts of 全部: the query's page fields and filters, the rows. */
export const designerList = <
  const P extends CallSpec['path'],
  const S extends string,
  const A extends string,
  const F extends z.ZodRawShape,
  const R extends z.ZodType,
>(
  path: P,
  summary: S,
  permission: A,
  filters: F,
  row: R,
) =>
  call('GET', path, summary, permission, {
    platform: true,
    query: z.object({ ...pageQueryDefaults, ...filters }),
    answer: pageOf(row),
    errors: [],
    example: { query: { page: 0, size: 10 } },
  });

/** A designer's delete of definitions by id, for accounts of 全部, refusing what `more` names besides bad ids. */
export const designerRemove = <
  const P extends CallSpec['path'],
  const T extends string,
  const A extends string,
  const E extends readonly ErrorCode[],
>(
  path: P,
  title: T,
  permission: A,
  more: E,
) =>
  write('POST', path, title, permission, {
    platform: true,
    body: deleteIds,
    answer: done,
    errors: ['NOTHING_TO_DELETE', 'ID_NOT_POSITIVE', 'ID_TOO_LARGE', ...more],
  });
