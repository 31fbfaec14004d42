/**
 * Field shapes the contract's calls share: ids, bounded whole numbers, text of a varchar(255) column,
 * references `{ id }`, a list's page `{ content, totalElements }` and the plain `{ status, message }`
 * answer. The server reads its input with exactly these.
 */
import { z } from 'zod';
import { normalizeDateTime } from '../model/index.js';
import { INT4_MAX } from '../shared/limits.js';

export { INT4_MAX };

/**
 * A whole number from the query, a form or JSON, between `min` and `max`; what falls outside is a 400
 * with the bound, never a database error. The bound is checked first so a 20-digit number says so.
 */
export const boundedInt = (min: number, max: number) =>
  z.coerce
    .number({ error: '必须是数字' })
    .max(max, { error: `不能大于 ${max}` })
    .min(min, { error: `不能小于 ${min}` })
    .int({ error: '必须是整数' });

/** A row id: a positive PostgreSQL integer. */
export const dbId = boundedInt(1, INT4_MAX);

/** Whether a number read by hand (not by a schema) is a row id the database can look up. */
export const isDbId = (n: number) => Number.isInteger(n) && n >= 1 && n <= INT4_MAX;

/** Text of the shape given whose date and time exist on the calendar: a shape alone lets `9999-99-99` through. */
const onCalendar = (text: z.ZodString, shape: RegExp, message: string) =>
  text.regex(shape, message).refine((s) => normalizeDateTime(s) !== null, message);

/**
 * A `YYYY-MM-DD HH:mm:ss` time from a client that exists on the calendar: the shape alone lets
 * `9999-99-99 99:99:99` through, which the database refuses.
 */
export const wireTimeText = (message: string) => onCalendar(z.string(), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, message);

/** A time bound of a filter from a client, `YYYY-MM-DD` or `YYYY-MM-DD HH:mm(:ss)`, that exists on the calendar. */
export const wireTimeBound = (message: string) => onCalendar(z.string().trim(), /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, message);

/** Response schema of a page: `{ content, totalElements }`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ content: z.array(item), totalElements: z.number() });

/**
 * Fields of an answer's row given as text or null, one per name; spread into the row's z.object where they
 * stand, so the answer keeps its field order.
 */
export const nullableText = <K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((n) => [n, z.string().nullable()])) as Record<K, z.ZodNullable<z.ZodString>>;

/** Form fields arrive as strings, JSON ones may be numbers. */
export const field = z.union([z.string(), z.number(), z.boolean()]).transform(String).optional();
/** A whole number an id column holds (0 included: "none" in some forms). */
export const int = boundedInt(0, INT4_MAX);
// null first: the coercing int would otherwise read null as 0 (and the signed body would differ from the parsed one).
export const optId = z.union([z.null(), int]).optional();
/** A reference to a row: `{ id }`. */
export const ref = z.object({ id: int });
/** The ids of the rows a delete names. */
export const idList = z.array(int).min(1, '请选择要删除的数据');
export const sortNum = boundedInt(-999_999, 999_999);
/** Text that goes into a varchar(255) column. */
export const text = z.string().max(255, '长度不能超过255个字符');

/** The answer of a call that returns no record: `{ status, message }`. */
export const ok = z.object({ status: z.number(), message: z.string() });

/**
 * A body its handler judges with `schema`, answering the first problem's own message as the page shows
 * it (without the 参数校验失败 prefix of a checked body): the route takes any JSON, the client is typed by it.
 */
export const judgedByHandler = <S extends z.ZodType>(_schema: S) => z.custom<z.input<S>>(() => true);
