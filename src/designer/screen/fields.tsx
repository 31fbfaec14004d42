import { UploadOutlined } from '@ant-design/icons';
import { Button, ColorPicker, Form, Input, InputNumber, Select, Space, Switch, Upload } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useId, useSyncExternalStore } from 'react';
import { useEngineServices } from '../../engine/index.js';
import type { Problem } from '../../model/index.js';
import { screenDesignApi, uploadedImageUrl } from './screen-api.js';
import { BG_POSITIONS, BG_SIZES, type DesignTemplate, getIn, type Path, pointerOfPath } from './template.js';

/**
 * Controls bound to a path of the template. Each shows the page model's problems that point at its
 * path under it, so a refused save says where. Typing in one field is one undo step.
 */

/**
 * The template and its problems as a store: each control subscribes to its own value, so an edit
 * (or an undo) redraws only the controls whose value or problems changed, not the whole side bar.
 */
export class DesignStore {
  private listeners = new Set<() => void>();
  private pending = false;
  private messages = new Map<string, string>();

  constructor(
    public template: DesignTemplate,
    public problems: readonly Problem[] = [],
  ) {}

  /** Takes the designer's current state while it renders; listeners hear of it after the commit (notify). */
  update(template: DesignTemplate, problems: readonly Problem[]): void {
    if (template === this.template && problems === this.problems) return;
    if (problems !== this.problems) this.messages.clear();
    this.template = template;
    this.problems = problems;
    this.pending = true;
  }

  notify(): void {
    if (!this.pending) return;
    this.pending = false;
    for (const listener of [...this.listeners]) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The problems at a pointer (`under`: or below it), as one text: code and message per line. */
  messagesAt(pointer: string, under = false): string {
    const key = `${under ? '>' : '='}${pointer}`;
    let text = this.messages.get(key);
    if (text === undefined) {
      text = this.problems
        .filter((p) => p.pointer === pointer || (under && p.pointer.startsWith(`${pointer}/`)))
        .map((p) => `${p.code}\t${p.message}`)
        .join('\n');
      this.messages.set(key, text);
    }
    return text;
  }
}

export interface DesignerEdit {
  store: DesignStore;
  /** Sets one value; `group` merges consecutive edits of one field into one undo step. */
  edit(path: Path, value: unknown, group?: string): void;
  /** Any other change, as one undo step. */
  apply(change: (t: DesignTemplate) => DesignTemplate): void;
}

export const DesignerContext = createContext<DesignerEdit | null>(null);

export function useDesigner(): DesignerEdit {
  const d = useContext(DesignerContext);
  if (!d) throw new Error('designer controls need <DesignerContext>');
  return d;
}

/** The template's value at `path`; re-renders only when that value changes. */
export function useDesignValue(path: Path): unknown {
  const { store } = useDesigner();
  const key = path.join('\u0000');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the path
  const get = useCallback(() => getIn(store.template, path), [store, key]);
  return useSyncExternalStore(store.subscribe, get, get);
}

/** The problems at a pointer (or below it), as "code<TAB>message" lines; empty when there are none. */
export function useProblemsAt(pointer: string, under = false): string {
  const { store } = useDesigner();
  const get = useCallback(() => store.messagesAt(pointer, under), [store, pointer, under]);
  return useSyncExternalStore(store.subscribe, get, get);
}

interface FieldProps {
  label: string;
  path: Path;
  hint?: ReactNode;
}

function useField(path: Path) {
  const { edit } = useDesigner();
  const pointer = pointerOfPath(path);
  const value = useDesignValue(path);
  const own = useProblemsAt(pointer)
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [code = '', message = ''] = line.split('\t');
      return { code, message };
    });
  const error = own.find((p) => !p.code.startsWith('W_'));
  return {
    id: useId(),
    value,
    pointer,
    set: (v: unknown, group?: string) => edit(path, v, group),
    status: (error ? 'error' : own.length ? 'warning' : undefined) as 'error' | 'warning' | undefined,
    help: own.length ? own.map((p) => <div key={p.message}>{p.message}</div>) : undefined,
  };
}

function Item({
  label,
  id,
  f,
  hint,
  children,
}: {
  label: string;
  id: string;
  f: ReturnType<typeof useField>;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      validateStatus={f.status}
      help={f.help ?? hint}
      data-pointer={f.pointer}
      className="wg-design-field"
    >
      {children}
    </Form.Item>
  );
}

export function NumField({
  label,
  path,
  min,
  max,
  integer,
  step,
  hint,
  suffix,
}: FieldProps & { min?: number; max?: number; integer?: boolean; step?: number; suffix?: string }) {
  const f = useField(path);
  const v = typeof f.value === 'number' ? f.value : typeof f.value === 'string' && f.value.trim() !== '' ? Number(f.value) : null;
  return (
    <Item label={label} id={f.id} f={f} hint={hint}>
      <InputNumber
        id={f.id}
        value={Number.isFinite(v) ? v : null}
        min={min}
        max={max}
        step={step}
        precision={integer ? 0 : undefined}
        suffix={suffix}
        style={{ width: '100%' }}
        onChange={(n) => f.set(n ?? undefined, f.pointer)}
      />
    </Item>
  );
}

export function TextField({ label, path, placeholder, hint }: FieldProps & { placeholder?: string }) {
  const f = useField(path);
  return (
    <Item label={label} id={f.id} f={f} hint={hint}>
      <Input
        id={f.id}
        value={typeof f.value === 'string' || typeof f.value === 'number' ? String(f.value) : ''}
        placeholder={placeholder}
        allowClear
        onChange={(e) => f.set(e.target.value, f.pointer)}
      />
    </Item>
  );
}

export function SwitchField({ label, path, hint }: FieldProps) {
  const f = useField(path);
  return (
    <Item label={label} id={f.id} f={f} hint={hint}>
      <Switch id={f.id} checked={f.value === true || f.value === 1 || f.value === 'true'} onChange={(on) => f.set(on)} />
    </Item>
  );
}

export function SelectField({
  label,
  path,
  options,
  hint,
  multiple,
  allowClear = true,
  placeholder,
  loading,
}: FieldProps & {
  options: { value: string | number; label: ReactNode }[];
  multiple?: boolean;
  allowClear?: boolean;
  placeholder?: string;
  loading?: boolean;
}) {
  const f = useField(path);
  // A list of names is stored comma-separated, as the charts read it.
  const value = multiple
    ? (typeof f.value === 'string' ? f.value.split(/[,，]/) : Array.isArray(f.value) ? f.value.map(String) : [])
        .map((s) => s.trim())
        .filter(Boolean)
    : f.value === '' || f.value === null
      ? undefined
      : f.value;
  return (
    <Item label={label} id={f.id} f={f} hint={hint}>
      <Select
        id={f.id}
        value={value as never}
        mode={multiple ? 'multiple' : undefined}
        options={options}
        allowClear={allowClear}
        placeholder={placeholder}
        loading={loading}
        showSearch={{ optionFilterProp: 'label' }}
        onChange={(v: unknown) => f.set(multiple ? (v as string[]).join(',') : (v ?? undefined))}
      />
    </Item>
  );
}

export function ColorField({ label, path, hint }: FieldProps) {
  const f = useField(path);
  const value = typeof f.value === 'string' && f.value ? f.value : undefined;
  return (
    <Item label={label} id={f.id} f={f} hint={hint}>
      <Space.Compact style={{ width: '100%' }}>
        <ColorPicker value={value} allowClear onChange={(c) => f.set(c.toCssString(), f.pointer)} onClear={() => f.set(undefined)} />
        <Input id={f.id} value={value ?? ''} placeholder="#ffffff / rgba(…)" onChange={(e) => f.set(e.target.value, f.pointer)} />
      </Space.Compact>
    </Item>
  );
}

/** The extension of a file name, lower case. */
const extOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase();

export const IMAGE_TYPES = ['jpg', 'jpeg', 'png'] as const;
export const HEADER_IMAGE_TYPES = ['jpg', 'jpeg', 'png', 'webp'] as const;

/** A background image: an address, or one file uploaded through the app (only the listed types). */
export function ImageField({ label, path, types = IMAGE_TYPES, hint }: FieldProps & { types?: readonly string[] }) {
  const f = useField(path);
  const { notify } = useEngineServices();
  const value = typeof f.value === 'string' ? f.value : '';
  return (
    <Item label={label} id={f.id} f={f} hint={hint}>
      <Space.Compact style={{ width: '100%' }}>
        <Input id={f.id} value={value} placeholder="图片地址" allowClear onChange={(e) => f.set(e.target.value || undefined, f.pointer)} />
        <Upload
          accept={types.map((t) => `.${t}`).join(',')}
          maxCount={1}
          showUploadList={false}
          beforeUpload={(file) => {
            if (!types.includes(extOf(file.name))) {
              notify.error(`允许上传 ${types.join('、')}`);
              return Upload.LIST_IGNORE;
            }
            return true;
          }}
          customRequest={({ file, onSuccess, onError }) => {
            screenDesignApi
              .uploadImage(file as Blob, String(path[path.length - 1] ?? 'bgImg'))
              .then((answer) => {
                f.set(uploadedImageUrl(answer.filePath));
                onSuccess?.(answer);
              })
              .catch((e: Error) => onError?.(e));
          }}
        >
          <Button icon={<UploadOutlined />}>上传</Button>
        </Upload>
      </Space.Compact>
    </Item>
  );
}

/** Where a background image sits and how it is sized (bgPosition, bgSize under `path`). */
export function BackgroundPlacement({
  path,
  positionLabel = '背景位置',
  sizeLabel = '背景尺寸',
}: {
  path: Path;
  positionLabel?: string;
  sizeLabel?: string;
}) {
  return (
    <div className="wg-design-grid2">
      <SelectField label={positionLabel} path={[...path, 'bgPosition']} options={BG_POSITIONS} />
      <SelectField label={sizeLabel} path={[...path, 'bgSize']} options={BG_SIZES} />
    </div>
  );
}
