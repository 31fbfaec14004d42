import type { z } from 'zod';

/**
 * A zod schema built only of unknown, string, optional, pipe, transform, loose object, array and
 * union (or of parts given a reader of their own by withFastReader), run directly as plain
 * functions: the same output as `schema.safeParse(v).data` when zod finds no issue, and FAILED
 * whenever it would find one. It does none of zod's bookkeeping (issue lists, payloads, paths), so a
 * valid definition reads several times faster; an invalid one is read again by zod itself, for its
 * problems. A schema using anything else gets no fast reader.
 */

export const FAILED: unique symbol = Symbol('failed');
type Reader = (v: unknown) => unknown;

interface ZodInternals {
  def: {
    type: string;
    checks?: readonly unknown[];
    innerType?: z.ZodType;
    in?: z.ZodType;
    out?: z.ZodType;
    transform?: (v: unknown, payload: { value: unknown; issues: unknown[]; addIssue: (issue: unknown) => void }) => unknown;
    shape?: Record<string, z.ZodType>;
    catchall?: z.ZodType;
    element?: z.ZodType;
    options?: readonly z.ZodType[];
  };
  optin?: string;
  optout?: string;
}

const internals = (schema: z.ZodType): ZodInternals => (schema as unknown as { _zod: ZodInternals })._zod;

class Unsupported extends Error {}

/** Readers given to schemas by withFastReader, run in place of the schema's own parts. */
const given = new WeakMap<z.ZodType, Reader>();

/**
 * Gives `schema` a plain function that the fast reader runs in its place: it must answer what zod
 * answers for every input (FAILED where zod reports an issue). For a schema built of many small
 * parts, run for every value of a definition, one call instead of a call per part.
 */
export function withFastReader<S extends z.ZodType>(schema: S, read: (v: unknown) => unknown): S {
  given.set(schema, read);
  return schema;
}

/** What a transform is given for its issues: it only records that one was added. */
class TransformCall {
  value: unknown = undefined;
  issues: unknown[] = [];
  failed = false;
  readonly addIssue = (): void => {
    this.failed = true;
  };
}

function readerOf(schema: z.ZodType, seen: Map<z.ZodType, Reader | 'building'>): Reader {
  const known = seen.get(schema);
  // A schema that contains itself (a shape with a getter) is left to zod.
  if (known === 'building') throw new Unsupported('recursive');
  if (known) return known;
  const fixed = given.get(schema);
  if (fixed) {
    seen.set(schema, fixed);
    return fixed;
  }
  seen.set(schema, 'building');
  const zod = internals(schema);
  const def = zod.def;
  if (def.checks && def.checks.length > 0) throw new Unsupported(`${def.type} with checks`);
  let read: Reader;
  switch (def.type) {
    case 'unknown':
      read = (v) => v;
      break;
    case 'string':
      read = (v) => (typeof v === 'string' ? v : FAILED);
      break;
    case 'optional': {
      if (!def.innerType || internals(def.innerType).optin === 'defaulted') throw new Unsupported('optional of a default');
      const inner = readerOf(def.innerType, seen);
      read = (v) => (v === undefined ? undefined : inner(v));
      break;
    }
    case 'pipe': {
      if (!def.in || !def.out) throw new Unsupported('pipe');
      const left = readerOf(def.in, seen);
      const right = readerOf(def.out, seen);
      read = (v) => {
        const x = left(v);
        return x === FAILED ? FAILED : right(x);
      };
      break;
    }
    case 'transform': {
      const fn = def.transform;
      if (!fn) throw new Unsupported('transform');
      const call = new TransformCall();
      read = (v) => {
        call.value = v;
        call.failed = false;
        const out = fn(v, call);
        call.value = undefined;
        // zod refuses a transform that answers with a promise in a synchronous parse.
        return call.failed || out instanceof Promise ? FAILED : out;
      };
      break;
    }
    case 'object':
      read = objectReader(def, seen);
      break;
    case 'array': {
      if (!def.element) throw new Unsupported('array');
      const element = readerOf(def.element, seen);
      read = (v) => {
        if (!Array.isArray(v)) return FAILED;
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) {
          const x = element(v[i]);
          if (x === FAILED) return FAILED;
          out[i] = x;
        }
        return out;
      };
      break;
    }
    case 'union': {
      const options = (def.options ?? []).map((o) => readerOf(o, seen));
      if (options.length === 0) throw new Unsupported('empty union');
      read = (v) => {
        for (const option of options) {
          const x = option(v);
          if (x !== FAILED) return x;
        }
        return FAILED;
      };
      break;
    }
    default:
      throw new Unsupported(def.type);
  }
  seen.set(schema, read);
  return read;
}

/**
 * A loose object: the shape's keys in its order, then every other key of the input as it is. The
 * input's own keys are looked up in the shape (definitions name few of a shape's keys), and merged in
 * the shape's order with the keys that are read even when absent.
 */
function objectReader(def: ZodInternals['def'], seen: Map<z.ZodType, Reader | 'building'>): Reader {
  if (!def.shape || !def.catchall || internals(def.catchall).def.type !== 'unknown') throw new Unsupported('object that is not loose');
  const keys = Object.keys(def.shape);
  // A key an object inherits would be found by `in` without being the input's own.
  if (keys.some((key) => key in Object.prototype)) throw new Unsupported('key');
  const entries = keys.map((key) => {
    const schema = (def.shape as Record<string, z.ZodType>)[key] as z.ZodType;
    const { optin, optout } = internals(schema);
    if (key === '__proto__' || optin === 'defaulted') throw new Unsupported('key');
    return {
      key,
      read: readerOf(schema, seen),
      // A required key must be there; a key both optional in and out is left out when absent; the
      // rest (optional in only, as a preprocess that fills in a value) read absence as undefined.
      absent: optin === undefined ? ('fails' as const) : optout === 'optional' ? ('omitted' as const) : ('read' as const),
    };
  });
  const indexOf = new Map(keys.map((key, i) => [key, i]));
  /** Entries visited when the input lacks them, by index, ascending. */
  const always = entries.flatMap((e, i) => (e.absent === 'omitted' ? [] : [i]));
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return FAILED;
    const record = input as Record<string, unknown>;
    const present: number[] = [];
    let extra = false;
    for (const key in record) {
      const i = indexOf.get(key);
      if (i === undefined) extra = true;
      else present.push(i);
    }
    // Few keys: sorted in place by insertion.
    for (let j = 1; j < present.length; j++) {
      const v = present[j] as number;
      let k = j - 1;
      while (k >= 0 && (present[k] as number) > v) {
        present[k + 1] = present[k] as number;
        k--;
      }
      present[k + 1] = v;
    }
    const out: Record<string, unknown> = {};
    let p = 0;
    let a = 0;
    while (p < present.length || a < always.length) {
      const next = p < present.length ? (present[p] as number) : Number.POSITIVE_INFINITY;
      const due = a < always.length ? (always[a] as number) : Number.POSITIVE_INFINITY;
      const e = entries[Math.min(next, due)] as (typeof entries)[number];
      if (next <= due) {
        p++;
        if (next === due) a++;
        const x = e.read(record[e.key]);
        if (x === FAILED) return FAILED;
        out[e.key] = x;
      } else {
        a++;
        if (e.absent === 'fails') return FAILED;
        const x = e.read(undefined);
        if (x === FAILED) return FAILED;
        if (x !== undefined) out[e.key] = x;
      }
    }
    if (extra)
      for (const key in record) {
        if (key === '__proto__' || indexOf.has(key)) continue;
        out[key] = record[key];
      }
    return out;
  };
}

/**
 * The fast reader of `schema`, or undefined when it uses something this does not run. The reader
 * returns FAILED where zod would report an issue; its result is otherwise what zod returns.
 */
export function fastReader<T>(schema: z.ZodType<T>): ((v: unknown) => T | typeof FAILED) | undefined {
  try {
    return readerOf(schema, new Map()) as (v: unknown) => T | typeof FAILED;
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}
