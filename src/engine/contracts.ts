/**
 * The form's props and handle, the same for a generated page and the runtime renderer: both pass
 * a form model and its schema (the generated module's, or buildSchema(form) at run time).
 */
import type { ZodType } from 'zod';
import type { FormModel } from '../model';

export type FormMode = 'add' | 'edit' | 'look';

/** `T`: the values the form's schema gives (the generated module's record type, or any record at run time). */
export interface EngineFormProps<T extends Record<string, unknown> = Record<string, unknown>> {
  form: FormModel;
  schema: ZodType<T>;
  mode: FormMode;
  /** Record values as the server answers them (detail call), or initGroovy/defaults for add. */
  initialValues?: Record<string, unknown>;
  /**
   * Receives the submit payload: show 3 and 4 removed, relation-hidden fields removed, datetimes
   * formatted with timeFormat, city fields as comma codes plus `{name}Fmt`, files as JSON list text.
   * A rejection keeps every value the user typed; an HttpError's `errors` show under the fields they name.
   */
  onSubmit?: (payload: Record<string, unknown>) => Promise<void>;
  /** Extra values merged into the payload (route query values, foreign keys, the key on edit). */
  fixedValues?: Record<string, unknown>;
  /**
   * The only fields the user may change of the record (the record answer's `writable`): the others are
   * shown disabled, not required, and left out of the payload. Absent: every field as its model says.
   */
  writable?: readonly string[];
}

export interface EngineFormHandle {
  /** Validates (zod, through react-hook-form) and calls onSubmit; resolves whether it went through. */
  submit(): Promise<boolean>;
  /** Back to the initial values, validation cleared. */
  reset(): void;
  /** True while onSubmit runs (the dialog's confirm button shows loading). */
  readonly submitting: boolean;
}
