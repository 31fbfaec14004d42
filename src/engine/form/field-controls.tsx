import { Cascader, DatePicker, Input, InputNumber, Select, Spin, TreeSelect } from 'antd';
import dayjs from 'dayjs';
import { type ComponentType, type CSSProperties, lazy, type Ref, Suspense, useMemo } from 'react';
import { type Control, useWatch } from 'react-hook-form';
import { DEFAULT_TIME_FORMAT, type FieldKind, type FieldModel, hasTimeOfDay } from '../../model';
import { labelPath, remoteSources, useDict, useRegionTree, useRemoteOptions } from '../options';
import type { RemoteOption } from '../options/types';
import { truncateLabel } from './labels';
import { UploadField } from './upload-field';

/** What every control gets from its field: the value in its editable shape (payload.ts) and the handlers. */
export interface ControlProps {
  field: FieldModel;
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur: () => void;
  /** Shown but not editable (show 3, look, editLock on edit). */
  readOnly: boolean;
  /** configure.disabled. */
  disabled: boolean;
  invalid: boolean;
  style: CSSProperties;
  inputRef: Ref<never>;
  control: Control;
  /** Sets a value the form keeps beside the field (a city's `{name}Fmt`). */
  setExtra: (name: string, value: unknown) => void;
}

const RichTextEditor = lazy(() => import('./rich-text-editor'));

const textOf = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function TextControl({ field, id, value, onChange, onBlur, readOnly, disabled, invalid, style, inputRef }: ControlProps) {
  const trimOnBlur = () => {
    if (typeof value === 'string' && value !== value.trim()) onChange(value.trim());
    onBlur();
  };
  const common = {
    id,
    value: textOf(value),
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
    onBlur: trimOnBlur,
    readOnly,
    disabled,
    status: invalid ? ('error' as const) : undefined,
    maxLength: field.maxLength,
    placeholder: readOnly || disabled ? undefined : `请输入${field.label}`,
    style,
    ref: inputRef,
  };
  if (field.kind === 'textarea') return <Input.TextArea {...common} rows={field.rows ?? 3} showCount={!!field.maxLength && !readOnly} />;
  return <Input {...common} />;
}

/**
 * No min, max or precision on the input itself: it would clamp or round what the user typed without
 * a word, where the schema says what is wrong (最小值不能小于 …, 最多保留 n 位小数).
 */
function NumberControl({ field, id, value, onChange, onBlur, readOnly, disabled, invalid, style, inputRef }: ControlProps) {
  return (
    <InputNumber<number>
      id={id}
      value={typeof value === 'number' ? value : value === null || value === undefined || value === '' ? null : Number(value)}
      onChange={(v) => onChange(v ?? null)}
      onBlur={onBlur}
      step={field.step ?? (field.kind === 'long' ? 1 : undefined)}
      readOnly={readOnly}
      disabled={disabled}
      status={invalid ? 'error' : undefined}
      placeholder={readOnly || disabled ? undefined : `请输入${field.label}`}
      style={style}
      ref={inputRef}
    />
  );
}

function DateControl({ field, id, value, onChange, onBlur, readOnly, disabled, invalid, style, inputRef }: ControlProps) {
  const format = field.timeFormat ?? DEFAULT_TIME_FORMAT;
  const parsed = typeof value === 'string' && value ? dayjs(value, format) : null;
  return (
    <DatePicker
      id={id}
      value={parsed?.isValid() ? parsed : null}
      format={format}
      showTime={hasTimeOfDay(format)}
      onChange={(d) => {
        onChange(d ? d.format(format) : null);
      }}
      onBlur={onBlur}
      onOpenChange={(open) => {
        if (!open) onBlur();
      }}
      disabled={disabled || readOnly}
      status={invalid ? 'error' : undefined}
      placeholder={`请选择${field.label}`}
      style={style}
      ref={inputRef}
    />
  );
}

interface SelectOption {
  value: string;
  label: string;
  title: string;
  children?: SelectOption[];
}

function selectOptions(list: readonly { value: string; label: string; children?: RemoteOption[] }[]): SelectOption[] {
  return list.map((o) => ({
    value: o.value,
    label: truncateLabel(o.label),
    title: o.label,
    ...(o.children?.length ? { children: selectOptions(o.children) } : {}),
  }));
}

const hasOption = (list: readonly SelectOption[], value: string): boolean =>
  list.some((o) => o.value === value || (o.children ? hasOption(o.children, value) : false));

function DictControl({ field, id, value, onChange, onBlur, readOnly, disabled, invalid, style, inputRef }: ControlProps) {
  const { entries, status } = useDict(field.dict);
  const options = useMemo(() => selectOptions(entries), [entries]);
  const full = useMemo(() => new Map(entries.map((e) => [e.value, e.label])), [entries]);
  return (
    <Select<string, SelectOption>
      id={id}
      value={value === null || value === undefined || value === '' ? undefined : String(value)}
      onChange={(v) => onChange(v ?? null)}
      onBlur={onBlur}
      options={options}
      labelRender={({ value: v, label }) => <span title={full.get(String(v)) ?? String(v)}>{label ?? String(v)}</span>}
      showSearch={{ optionFilterProp: 'title' }}
      allowClear={!readOnly}
      loading={status === 'loading'}
      notFoundContent={status === 'loading' ? <Spin size="small" /> : undefined}
      disabled={disabled || readOnly}
      status={invalid ? 'error' : undefined}
      placeholder={`请选择${field.label}`}
      style={style}
      ref={inputRef}
    />
  );
}

/** The current values of the fields a remote field's type-2 parameters name: its options reload when they change. */
function useSourceValues(field: FieldModel, control: Control): Record<string, unknown> {
  const sources = useMemo(() => remoteSources(field.remote), [field.remote]);
  const watched = useWatch({ control, name: sources, disabled: sources.length === 0 }) as unknown;
  return useMemo(() => {
    const list = Array.isArray(watched) ? watched : [];
    return Object.fromEntries(sources.map((s, i) => [s, list[i]]));
  }, [sources, watched]);
}

function RemoteControl(props: ControlProps) {
  const { field, id, value, onChange, onBlur, readOnly, disabled, invalid, style, inputRef, control } = props;
  const values = useSourceValues(field, control);
  const { options: raw, status } = useRemoteOptions(field.remote, values);
  const multiple = field.remote?.multiple ?? false;
  const current = multiple
    ? Array.isArray(value)
      ? value.map(String)
      : []
    : value === null || value === undefined || value === ''
      ? undefined
      : String(value);
  // The record answers the label of the record it picks as {name}Fmt: a value the options (scoped to the
  // user) lack shows that label, or —, never its bare id.
  const answered = useWatch({ control, name: `${field.name}Fmt` }) as unknown;
  const options = useMemo(() => {
    const list = selectOptions(raw);
    if (typeof current !== 'string' || status === 'loading' || hasOption(list, current)) return list;
    const label = typeof answered === 'string' && answered ? answered : '—';
    return [...list, { value: current, label: truncateLabel(label), title: label }];
  }, [raw, current, status, answered]);
  const common = {
    id,
    onBlur,
    allowClear: !readOnly,
    disabled: disabled || readOnly,
    status: invalid ? ('error' as const) : undefined,
    placeholder: `请选择${field.label}`,
    style,
    notFoundContent: status === 'loading' ? <Spin size="small" /> : undefined,
  };
  if (field.remote?.tree)
    return (
      <TreeSelect
        {...common}
        value={current}
        onChange={(v: unknown) => onChange(v ?? (multiple ? [] : null))}
        treeData={options}
        fieldNames={{ label: 'label', value: 'value', children: 'children' }}
        multiple={multiple}
        showSearch
        treeNodeFilterProp="title"
        treeTitleRender={(node: SelectOption) => <span title={node.title}>{node.label}</span>}
        loading={status === 'loading'}
        ref={inputRef}
      />
    );
  return (
    <Select<string | string[], SelectOption>
      {...common}
      value={current}
      onChange={(v) => onChange(v ?? (multiple ? [] : null))}
      options={options}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ optionFilterProp: 'title' }}
      loading={status === 'loading'}
      ref={inputRef}
    />
  );
}

function CityControl({ field, id, value, onChange, onBlur, readOnly, disabled, invalid, style, inputRef, setExtra }: ControlProps) {
  const { options, status } = useRegionTree();
  const codes = typeof value === 'string' && value ? value.split(',') : [];
  return (
    <Cascader
      id={id}
      value={codes}
      options={options}
      onChange={(v) => {
        const next = (v ?? []).map(String);
        onChange(next.length ? next.join(',') : null);
        setExtra(`${field.name}Fmt`, next.length ? (labelPath(options, next) ?? []).join('/') : null);
      }}
      onBlur={onBlur}
      onOpenChange={(open) => {
        if (!open) onBlur();
      }}
      showSearch
      allowClear={!readOnly}
      disabled={disabled || readOnly}
      status={invalid ? 'error' : undefined}
      placeholder={`请选择${field.label}`}
      notFoundContent={status === 'loading' ? <Spin size="small" /> : undefined}
      style={style}
      ref={inputRef}
    />
  );
}

function EditorControl({ field, id, value, onChange, onBlur, readOnly, disabled }: ControlProps) {
  return (
    <Suspense fallback={<Spin size="small" />}>
      <RichTextEditor
        id={id}
        name={field.name}
        label={field.label}
        value={typeof value === 'string' ? value : ''}
        onChange={onChange}
        onBlur={onBlur}
        readOnly={readOnly || disabled}
      />
    </Suspense>
  );
}

/** The control of each field kind (model: FieldModel.kind); a record, so no kind goes without one. */
const CONTROLS: Record<FieldKind, ComponentType<ControlProps>> = {
  text: TextControl,
  textarea: TextControl,
  long: NumberControl,
  decimal: NumberControl,
  datetime: DateControl,
  dict: DictControl,
  remote: RemoteControl,
  city: CityControl,
  file: UploadField,
  image: UploadField,
  editor: EditorControl,
};

/** The control of a field's kind; a kind the model does not know reads as text. */
export function FieldControl(props: ControlProps) {
  const Control = CONTROLS[props.field.kind] ?? TextControl;
  return <Control {...props} />;
}
