import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/**
 * react-hook-form ↔ the view's zod schema (the generated module's, or buildSchema at run time): the
 * schema holds every message, so nothing here decides one. An issue belongs to the field its path
 * starts with; only a field's first issue is kept (the schema orders them by field and by check).
 * Issues without a path land on `root`.
 */
export function fieldErrors<T>(schema: ZodType<T>, values: unknown): { ok: true; data: T } | { ok: false; errors: Record<string, string> } {
  const r = schema.safeParse(values);
  if (r.success) return { ok: true, data: r.data };
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = issue.path[0];
    const name = key === undefined ? 'root' : String(key);
    if (!Object.hasOwn(errors, name)) errors[name] = issue.message;
  }
  return { ok: false, errors };
}

export function zodResolver<T>(schema: ZodType<T>): Resolver<FieldValues, unknown, T> {
  return (values) => {
    const r = fieldErrors(schema, values);
    if (r.ok) return { values: r.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const [name, message] of Object.entries(r.errors)) errors[name] = { type: 'validate', message };
    return { values: {}, errors };
  };
}
