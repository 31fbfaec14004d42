/**
 * Field shapes the low-code resources share: the designs' common fields (name, menu, status, version),
 * the `{ status, message, … }` answers of their writes, and the ids of their deletes.
 */
import { z } from 'zod';
import { boundedInt, dbId, INT4_MAX } from './fields.js';

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
