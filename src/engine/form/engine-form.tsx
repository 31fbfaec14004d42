import { Col, Divider, Form, Row } from 'antd';
import { type CSSProperties, forwardRef, memo, useCallback, useEffect, useId, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { type Control, Controller, type FieldErrors, type FieldValues, useForm, useWatch } from 'react-hook-form';
import type { FieldModel, FormModel } from '../../model/types';
import { notify } from '../../notify/notifier';
import type { EngineFormHandle, EngineFormProps, FormMode } from '../contracts';
import { labelPath, useRegionTree } from '../options';
import { FieldControl } from './field-controls';
import { cssSize } from './labels';
import { buildPayload, editableValues, type FieldState, fieldStates, relationTriggers } from './payload';
import { zodResolver } from './resolver';

/**
 * The generic form (lowcode-engine.md §2.2, §3.2, §5.1): antd layout, react-hook-form state, the
 * view's zod schema through zodResolver. Everything it shows is read from the model: kinds, show,
 * relations, dividers, widths. Values are kept in the shape they are submitted in (payload.ts), so a
 * rejected submit leaves every typed value as it was.
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
  required: boolean;
  inputWidth: string;
  setExtra: (name: string, value: unknown) => void;
}

const FieldItem = memo(function FieldItem({ field, id, control, readOnly, required, inputWidth, setExtra }: ItemProps) {
  const style = useMemo<CSSProperties>(() => ({ width: inputWidth, maxWidth: '100%' }), [inputWidth]);
  return (
    <Controller
      control={control}
      name={field.name}
      render={({ field: f, fieldState }) => (
        <Form.Item
          label={field.label}
          htmlFor={id}
          required={required}
          validateStatus={fieldState.error ? 'error' : undefined}
          help={fieldState.error?.message}
          extra={field.tips}
        >
          <FieldControl
            field={field}
            id={id}
            value={f.value}
            onChange={f.onChange}
            onBlur={f.onBlur}
            readOnly={readOnly}
            disabled={field.disabled}
            invalid={!!fieldState.error}
            style={style}
            inputRef={f.ref as never}
            control={control}
            setExtra={setExtra}
          />
        </Form.Item>
      )}
    />
  );
});

/** Watches the relation triggers only: a keystroke elsewhere does not re-render the whole form. */
function useFieldStates(form: FormModel, mode: FormMode, control: Control, start: FieldValues): Map<string, FieldState> {
  const triggers = useMemo(() => relationTriggers(form), [form]);
  const watched = useWatch({ control, name: triggers, disabled: triggers.length === 0 }) as unknown;
  const key = JSON.stringify(watched ?? null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: key is the watched values' content
  return useMemo(() => {
    const list = Array.isArray(watched) ? watched : [];
    const values = triggers.length ? Object.fromEntries(triggers.map((t, i) => [t, list[i]])) : start;
    return fieldStates(form, mode, values);
  }, [form, mode, key, triggers]);
}

export const EngineForm = forwardRef<EngineFormHandle, EngineFormProps>(function EngineForm(
  { form, schema, mode, initialValues, onSubmit, fixedValues },
  ref,
) {
  // By content: a caller passing a fresh but equal object each render must not reset what was typed.
  const initialKey = JSON.stringify(initialValues ?? null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: initialKey is initialValues' content
  const start = useMemo(() => editableValues(form, mode, initialValues), [form, mode, initialKey]);
  const resolver = useMemo(() => zodResolver(schema), [schema]);
  const methods = useForm<FieldValues>({
    defaultValues: start,
    resolver,
    mode: 'onTouched',
    reValidateMode: 'onChange',
    shouldFocusError: true,
  });
  const { control, reset, handleSubmit, getValues, setValue } = methods;

  // A new record (the detail arrived, another row was opened) starts the form again.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    reset(start);
  }, [start, reset]);

  const states = useFieldStates(form, mode, control, start);
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
    [states],
  );

  const submit = useCallback(async (): Promise<boolean> => {
    if (mode === 'look' || !onSubmit || submittingRef.current) return false;
    let ok = false;
    await handleSubmit(async (parsed) => {
      const payload = buildPayload(form, parsed, getValues(), {
        fixedValues,
        cityLabels: (codes) => labelPath(regionsRef.current, codes),
      });
      submittingRef.current = true;
      setSubmitting(true);
      try {
        await onSubmit(payload);
        ok = true;
      } catch {
        // The caller has said what went wrong; the values stay as typed.
        ok = false;
      } finally {
        submittingRef.current = false;
        setSubmitting(false);
      }
    }, reportHidden)();
    return ok;
  }, [mode, onSubmit, handleSubmit, form, getValues, fixedValues, reportHidden]);

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
  const dividers = useMemo(() => new Map(form.dividers.map((d) => [d.before, d.title])), [form.dividers]);
  const span = dialog.inline ? 12 : 24;

  const items: React.ReactNode[] = [];
  for (const field of form.fields) {
    const title = dividers.get(field.name);
    if (title !== undefined)
      items.push(
        <Col span={24} key={`divider:${field.name}`}>
          <Divider titlePlacement="start">{title}</Divider>
        </Col>,
      );
    const state = states.get(field.name);
    if (!state || state.hidden) continue;
    const wide = field.kind === 'editor';
    items.push(
      <Col xs={24} md={wide ? 24 : span} key={field.name} data-field={field.name}>
        <FieldItem
          field={field}
          id={`${baseId}-${field.name}`}
          control={control}
          readOnly={state.readOnly}
          required={state.required}
          inputWidth={cssSize(field.inputWidth ?? dialog.inputWidth) ?? `${DEFAULT_INPUT_WIDTH}px`}
          setExtra={setExtra}
        />
      </Col>,
    );
  }

  return (
    <Form
      component="div"
      layout="horizontal"
      labelCol={{ flex: `0 0 ${labelWidth}` }}
      wrapperCol={{ flex: '1 1 0' }}
      labelWrap
      data-form-mode={mode}
    >
      <Row gutter={16}>{items}</Row>
    </Form>
  );
});
