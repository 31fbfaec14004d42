/**
 * Lenient readers of definition values. Servers of this family send booleans as 1/"1"/"true",
 * numbers as strings ("250", "250px"), lists as comma-separated strings, and empty strings for
 * "absent". Each reader returns the value, `undefined` for absent, or an error message.
 * The reference server and the zod wire schemas share them, so both read a definition alike.
 */
export type Read<T> = { ok: true; value: T | undefined } | { ok: false; message: string };

const ok = <T>(value: T | undefined): Read<T> => ({ ok: true, value });
const fail = (message: string): Read<never> => ({ ok: false, message });
const shown = (v: unknown): string =>
  typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : String(v);

export const isAbsent = (v: unknown): v is null | undefined | '' => v === undefined || v === null || v === '';

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readBoolean(v: unknown): Read<boolean> {
  if (isAbsent(v)) return ok(undefined);
  if (v === true || v === 1 || v === '1' || v === 'true') return ok(true);
  if (v === false || v === 0 || v === '0' || v === 'false') return ok(false);
  return fail(`expected a boolean (true, false, 1, 0), got ${shown(v)}`);
}

/** Digits with an optional fraction: '12', '1.5', '3.' or '.5'. */
const UNSIGNED = String.raw`(\d+(\.\d*)?|\.\d+)`;
const NUMBER = `[-+]?${UNSIGNED}`;
/** A number written as text, spaces around allowed ('12', ' -1.5', '.5', '3.'): what a number field and the server accept. */
export const NUMBER_TEXT: RegExp = new RegExp(`^\\s*${NUMBER}\\s*$`);
/** A number as a definition may write a length, also in pixels ('250px'). */
export const PIXEL_TEXT: RegExp = new RegExp(`^\\s*${NUMBER}\\s*(?:px\\s*)?$`);
/** A percentage ('60%', ' 12.5% '). */
export const PERCENT_TEXT: RegExp = new RegExp(`^\\s*${UNSIGNED}%\\s*$`);
/** Bare digits, no sign, point or space: an id, a count or an index as an address or a header carries it. */
export const DIGITS_TEXT: RegExp = /^\d+$/;

export function readNumeric(v: unknown): Read<number> {
  if (isAbsent(v)) return ok(undefined);
  if (typeof v === 'number') return Number.isFinite(v) ? ok(v) : fail(`expected a number, got ${String(v)}`);
  if (typeof v === 'string' && PIXEL_TEXT.test(v)) return ok(Number.parseFloat(v.replace(/^\s*\+/, '')));
  return fail(`expected a number, got ${shown(v)}`);
}

export function readInteger(v: unknown): Read<number> {
  const r = readNumeric(v);
  if (!r.ok || r.value === undefined || Number.isInteger(r.value)) return r;
  return fail(`expected a whole number, got ${shown(v)}`);
}

/** A width: a number of pixels ("250", "250px", 250) or a percentage ("60%"), kept as text. */
export function readWidth(v: unknown): Read<number | string> {
  if (typeof v === 'string' && PERCENT_TEXT.test(v)) return ok(v.trim());
  const r = readNumeric(v);
  return r.ok ? r : fail(`expected a width in pixels or a percentage, got ${shown(v)}`);
}

export function readText(v: unknown): Read<string> {
  if (isAbsent(v)) return ok(undefined);
  if (typeof v === 'string') return ok(v);
  if (typeof v === 'number' || typeof v === 'boolean') return ok(String(v));
  return fail(`expected text, got ${shown(v)}`);
}

export function readTextList(v: unknown): Read<string[]> {
  if (isAbsent(v)) return ok(undefined);
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const x of v) {
      if (isAbsent(x)) continue;
      if (typeof x !== 'string' && typeof x !== 'number') return fail(`expected a list of text, got ${shown(x)} in the list`);
      const s = String(x).trim();
      if (s) out.push(s);
    }
    return ok(out);
  }
  if (typeof v === 'string')
    return ok(
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  if (typeof v === 'number') return ok([String(v)]);
  return fail(`expected a list or comma-separated text, got ${shown(v)}`);
}

/** JSON text inside JSON (disTemplate, disMenu on the wire); an object is taken as it is. */
export function readJsonText(v: unknown): Read<unknown> {
  if (isAbsent(v)) return ok(undefined);
  if (typeof v !== 'string') return ok(v);
  if (v.trim() === '') return ok(undefined);
  try {
    return ok(JSON.parse(v));
  } catch (e) {
    return fail(`embedded JSON text does not parse: ${e instanceof Error ? e.message : String(e)}`);
  }
}
