/**
 * Contracts between the parts of the low-code engine (issue 5): the form (src/engine/form), the
 * option loader (src/engine/options), the list page (src/engine/list) and the page shells
 * (pages.tsx, runtime.tsx). A generated page and the runtime renderer pass the same props.
 */
import type { ZodType } from 'zod';
import type { FormModel } from '../model/types';

export type FormMode = 'add' | 'edit' | 'look';

export interface EngineFormProps {
  form: FormModel;
  /** The view's form schema: the generated module's, or buildSchema(form) at run time. */
  schema: ZodType;
  mode: FormMode;
  /** Record values as the server answers them (detail call), or initGroovy/defaults for add. */
  initialValues?: Record<string, unknown>;
  /**
   * Receives the submit payload: show 3 and 4 removed, relation-hidden fields removed, datetimes
   * formatted with timeFormat, city fields as comma codes plus `{name}Fmt`, files as JSON list text.
   * A rejection keeps every value the user typed (the caller shows the error).
   */
  onSubmit?: (payload: Record<string, unknown>) => Promise<void>;
  /** Extra values merged into the payload (route query values, foreign keys, the key on edit). */
  fixedValues?: Record<string, unknown>;
}

export interface EngineFormHandle {
  /** Validates (zod, through react-hook-form) and calls onSubmit; resolves whether it went through. */
  submit(): Promise<boolean>;
  /** Back to the initial values, validation cleared. */
  reset(): void;
  /** True while onSubmit runs (the dialog's confirm button shows loading). */
  readonly submitting: boolean;
}
