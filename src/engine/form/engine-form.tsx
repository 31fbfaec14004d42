import { Col, Divider, Form, Row } from 'antd';
import {
  type CSSProperties,
  type FormEvent,
  memo,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  type Control,
  Controller,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  get,
  useForm,
  useFormState,
  useWatch,
} from 'react-hook-form';
import type { FieldModel, FormModel } from '../../model';
import type { EngineFormHandle, EngineFormProps, FormMode } from '../contracts';
import { labelPath, useRegionTree } from '../options';
import { HttpError, useEngineServices } from '../services';
import { FieldControl } from './field-controls';
import { groupStarts } from './groups';
import { cssSize } from './labels';
import { buildPayload, editableValues, type FieldState, type FormValues, fieldStates, relationTriggers } from './payload';
import { zodResolver } from './resolver';
import './engine-form.css';

/**
 * The generic form: antd layout, react-hook-form state, the view's zod schema through zodResolver.
 * Everything it shows is read from the model: kinds, show, relations, dividers, widths. Values are
 * kept in the shape they are submitted in (payload.ts), so a rejected submit leaves every typed
 * value as it was, and the messages of a record the server refused show under their fields.
 *
 * Validation: a field is first checked when it loses focus (named validators and patterns report
 * on blur), then on every change; submit checks everything.
 */

export const DEFAULT_LABEL_WIDTH = 80;
export const DEFAULT_INPUT_WIDTH = 250;

interface ItemProps {
  field: FieldModel;
  id: string;
  control: Control;
  readOnly: boolean;
  /** Outside what the user may change of the record: shown disabled. */
  locked?: boolean;
  /** 查看: the field's help for typing (tips) is left out. */
  looking?: boolean;
  required: boolean;
  inputWidth: string;
  setExtra: (name: string, value: unknown) => void;
}

/**
 * Each field is its own <form>, one the user never submits (Enter submits nothing, as before).
 * Chrome's autofill reads, after every keystroke, the whole form the edited field belongs to; fields
 * outside any <form> all belong to one form of the whole page, so a keystroke in a 200-field dialog
 * had Chrome re-read all 200 fields (labels, visibility), in the page and again in the browser
 * process. With a form of its own, it reads the one field.
 */
const keepSubmit = (e: FormEvent) => {
  e.preventDefault();
  e.stopPropagation();
};

/**
 * One field: the antd Form.Item (label, status, message) re-renders only when the field's error
 * changes; the Controller inside it, with the control, on each change of its value. Typing into a
 * field so re-renders that field's control, not its Form.Item.
 */
const FieldItem = memo(function FieldItem({ field, id, control, readOnly, locked, looking, required, inputWidth, setExtra }: ItemProps) {
  const style = useMemo<CSSProperties>(() => ({ width: inputWidth, maxWidth: '100%' }), [inputWidth]);
  const { errors } = useFormState({ control, name: field.name, exact: true });
  const error = get(errors, field.name) as FieldError | undefined;
  const invalid = !!error;
  return (
    <form noValidate onSubmit={keepSubmit}>
      <Form.Item
        label={field.label}
        htmlFor={id}
        required={required}
        validateStatus={invalid ? 'error' : undefined}
        help={error?.message}
        extra={looking ? undefined : field.tips}
      >
        <Controller
          control={control}
          name={field.name}
          render={({ field: f }) => (
            <FieldControl
              field={field}
              id={id}
              value={f.value}
              onChange={f.onChange}
              onBlur={f.onBlur}
              readOnly={readOnly || locked === true}
              disabled={field.disabled || locked === true}
              invalid={invalid}
              style={style}
              inputRef={f.ref as never}
              control={control}
              setExtra={setExtra}
            />
          )}
        />
      </Form.Item>
    </form>
  );
});

const WRAPPER_COL = { flex: '1 1 0' };

/** A value that holds nothing: none, blank text, an empty list (also as the text `[]`). */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'string') return value.trim() === '' || value.trim() === '[]';
  return false;
}

/** What a line of fields is taken to be high before its group has been drawn (see engine-form.css). */
const LINE_HEIGHT_GUESS = 56;

/**
 * A group of fields (groups.ts): a flex-wrap box of its own inside the form's Row, laying its fields
 * out as the Row would. Off screen it skips style, layout and paint (engine-form.css), and React
 * walks past it when a field of another group changes.
 */
function FieldGroup({ lines, children }: { lines: number; children: React.ReactNode }) {
  return (
    <div className="engine-form-group" style={{ containIntrinsicBlockSize: `auto ${lines * LINE_HEIGHT_GUESS}px` }}>
      {children}
    </div>
  );
}

/**
 * The fields' states (hidden, read-only, required) for the relation triggers' current values. Only
 * the triggers are watched, and the form re-renders when a state changes, not on every change of a
 * trigger's value: typing into a text field that is a trigger re-renders that field alone until what
 * it decides changes.
 */
function useFieldStates(
  form: FormModel,
  mode: FormMode,
  control: Control,
  getValues: (names: string[]) => unknown[],
): Map<string, FieldState> {
  const triggers = useMemo(() => relationTriggers(form), [form]);
  const statesOf = useCallback(
    (watched: unknown) => {
      const list = Array.isArray(watched) ? watched : [];
      return fieldStates(form, mode, Object.fromEntries(triggers.map((t, i) => [t, list[i]])));
    },
    [form, mode, triggers],
  );
  const signature = useWatch({
    control,
    name: triggers,
    disabled: triggers.length === 0,
    compute: (watched: unknown) => JSON.stringify([...statesOf(watched)]),
  }) as unknown;
  // biome-ignore lint/correctness/useExhaustiveDependencies: signature is the states' content
  return useMemo(() => statesOf(getValues(triggers)), [statesOf, getValues, triggers, signature]);
}

/** The fields of a refused record that the form draws get their message; the first is focused. */
function showServerErrors(
  errors: Readonly<Record<string, string>>,
  form: FormModel,
  states: ReadonlyMap<string, FieldState>,
  setError: (name: string, error: { type: string; message: string }, options: { shouldFocus: boolean }) => void,
): void {
  let first = true;
  for (const field of form.fields) {
    const message = errors[field.name];
    if (message === undefined || !states.get(field.name) || states.get(field.name)?.hidden) continue;
    setError(field.name, { type: 'server', message }, { shouldFocus: first });
    first = false;
  }
}

export function EngineForm<T extends FormValues = FormValues>({
  form,
  schema,
  mode,
  initialValues,
  onSubmit,
  fixedValues,
  writable,
  ref,
}: EngineFormProps<T> & { ref?: Ref<EngineFormHandle> }) {
  const { notify } = useEngineServices();
  // By content: a caller passing a fresh but equal object each render must not reset what was typed.
  const initialKey = JSON.stringify(initialValues ?? null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: initialKey is initialValues' content
  const start = useMemo(() => editableValues(form, mode, initialValues), [form, mode, initialKey]);
  const resolver = useMemo(() => zodResolver(schema), [schema]);
  const methods = useForm<FieldValues, unknown, T>({
    defaultValues: start,
    resolver,
    mode: 'onTouched',
    reValidateMode: 'onChange',
    shouldFocusError: true,
  });
  const { control, reset, handleSubmit, getValues, setValue, setError } = methods;

  // A new record (the detail arrived, another row was opened) starts the form again.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    reset(start);
  }, [start, reset]);

  const states = useFieldStates(form, mode, control, getValues as (names: string[]) => unknown[]);
  const hasCity = form.fields.some((f) => f.kind === 'city');
  const regions = useRegionTree(hasCity);
  const regionsRef = useRef(regions.options);
  regionsRef.current = regions.options;

  const setExtra = useCallback((name: string, value: unknown) => setValue(name, value), [setValue]);

  const submittingRef = useRef(false);
  const [, setSubmitting] = useState(false);
  const baseId = useId();

  const reportHidden = useCallback(
    (errors: FieldErrors) => {
      // A field that is not drawn (show 2) cannot show its message; say it here instead.
      const hidden = Object.entries(errors).find(([name]) => name === 'root' || states.get(name)?.hidden);
      const message = hidden?.[1]?.message;
      if (typeof message === 'string') notify.warning(message);
    },
    [states, notify],
  );

  const submit = useCallback(async (): Promise<boolean> => {
    if (mode === 'look' || !onSubmit || submittingRef.current) return false;
    let ok = false;
    await handleSubmit(async (parsed) => {
      const payload = buildPayload(form, parsed, getValues(), {
        fixedValues,
        cityLabels: (codes) => labelPath(regionsRef.current, codes),
        writable,
      });
      submittingRef.current = true;
      setSubmitting(true);
      try {
        await onSubmit(payload);
        ok = true;
      } catch (e) {
        // The values stay as typed; the fields the server named say what it refused.
        if (e instanceof HttpError && e.errors) showServerErrors(e.errors, form, states, setError);
        ok = false;
      } finally {
        submittingRef.current = false;
        setSubmitting(false);
      }
    }, reportHidden)();
    return ok;
  }, [mode, onSubmit, handleSubmit, form, getValues, fixedValues, writable, reportHidden, states, setError]);

  useImperativeHandle(
    ref,
    () => ({
      submit,
      reset: () => reset(start),
      get submitting() {
        return submittingRef.current;
      },
    }),
    [submit, reset, start],
  );

  const dialog = form.dialog;
  const labelWidth = cssSize(dialog.labelWidth) ?? `${DEFAULT_LABEL_WIDTH}px`;
  // The same objects from one render to the next: new ones would re-render every Form.Item.
  const labelCol = useMemo(() => ({ flex: `0 0 ${labelWidth}` }), [labelWidth]);
  const dividers = useMemo(() => new Map(form.dividers.map((d) => [d.before, d.title])), [form.dividers]);
  const span = dialog.inline ? 12 : 24;

  const widthOf = useCallback((field: FieldModel) => (field.kind === 'editor' ? 24 : span), [span]);
  const starts = useMemo(() => groupStarts(form, widthOf), [form, widthOf]);

  const groups: React.ReactNode[] = [];
  let items: React.ReactNode[] = [];
  let width = 0;
  const endGroup = (start: number) => {
    if (items.length)
      groups.push(
        <FieldGroup key={`group:${start}`} lines={Math.ceil(width / 24)}>
          {items}
        </FieldGroup>,
      );
    items = [];
    width = 0;
  };
  let group = 0;
  form.fields.forEach((field, index) => {
    if (index === starts[group + 1]) endGroup(starts[group++] as number);
    const title = dividers.get(field.name);
    if (title !== undefined) {
      items.push(
        <Col span={24} key={`divider:${field.name}`}>
          <Divider titlePlacement="start">{title}</Divider>
        </Col>,
      );
      width = Math.ceil(width / 24) * 24 + 24;
    }
    const state = states.get(field.name);
    if (!state || state.hidden) return;
    const locked = writable !== undefined && !writable.includes(field.name);
    // 查看 shows what the record holds: a file or picture field it left empty is no empty block.
    if (mode === 'look' && (field.kind === 'image' || field.kind === 'file') && isEmptyValue(start[field.name])) return;
    items.push(
      <Col xs={24} md={widthOf(field)} key={field.name} data-field={field.name}>
        <FieldItem
          field={field}
          id={`${baseId}-${field.name}`}
          control={control}
          readOnly={state.readOnly}
          locked={locked}
          looking={mode === 'look'}
          required={state.required && !locked}
          inputWidth={cssSize(field.inputWidth ?? dialog.inputWidth) ?? `${DEFAULT_INPUT_WIDTH}px`}
          setExtra={setExtra}
        />
      </Col>,
    );
    width += widthOf(field);
  });
  endGroup(starts[group] as number);

  return (
    <Form component="div" layout="horizontal" labelCol={labelCol} wrapperCol={WRAPPER_COL} labelWrap data-form-mode={mode}>
      <Row gutter={16}>{groups}</Row>
    </Form>
  );
}
