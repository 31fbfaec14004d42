import { Alert, Button, Form, type FormInstance, Modal } from 'antd';
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { notify } from '../../../notify/notifier';
import { RequestError } from '../../../request';
import { setCloseGuard } from '../../../shell/close-guards';
import { confirmDeleteText, MESSAGES } from './rules';
import './system.css';

/** The text of a failed call: the server's message when it sent one. */
export function errorText(e: unknown): string {
  if (e instanceof RequestError || e instanceof Error) return e.message || '接口请求失败';
  return String(e);
}

export interface Remote<T> {
  data: T | undefined;
  loading: boolean;
  error: string | null;
  reload: () => void;
}

/**
 * Data read from the server for a page: loading, the last answer (kept while a reload runs), and the
 * error of the last failed read. `load` runs again when `deps` change; answers of superseded reads
 * are dropped.
 */
export function useRemote<T>(load: () => Promise<T>, deps: readonly unknown[]): Remote<T> {
  const [data, setData] = useState<T>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's, tick reloads
  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    loadRef
      .current()
      .then((d) => {
        if (mine !== seq.current) return;
        setData(d);
        setError(null);
      })
      .catch((e) => mine === seq.current && setError(errorText(e)))
      .finally(() => mine === seq.current && setLoading(false));
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, loading, error, reload };
}

/** Asks before leaving unsaved work; true when the user agrees to lose it. */
export function confirmUnsaved(what: string): Promise<boolean> {
  return notify.confirm({ title: `${what}尚未保存`, content: '关闭后填写的内容将丢失，确定关闭吗？', okText: '关闭', cancelText: '取消' });
}

/** Asks before deleting; true when confirmed. */
export function confirmDelete(what: string): Promise<boolean> {
  return notify.confirm({ title: MESSAGES.confirmTitle, content: confirmDeleteText(what), okText: '确定', cancelText: '取消' });
}

/**
 * Deletes after asking: the call's refusal is shown by the request client (the server's message);
 * success is announced and `done` runs.
 */
export async function deleteAfterConfirm(what: string, call: () => Promise<unknown>, done: () => void): Promise<void> {
  if (!(await confirmDelete(what))) return;
  try {
    await call();
    notify.success(MESSAGES.deleted);
    done();
  } catch {
    // The request client has shown the server's message.
  }
}

export interface FormModalProps<V> {
  title: string;
  open: boolean;
  form: FormInstance<V>;
  /** Values to start from each time the dialog opens. */
  initialValues: Partial<V>;
  width?: number;
  /** Sends the values; a rejection keeps the dialog open with everything typed and shows the message in it. */
  onSubmit: (values: V) => Promise<void>;
  onClose: () => void;
  children: ReactNode;
  okText?: string;
}

/**
 * A dialog form that never loses what was typed: a refused save leaves the dialog open with the
 * values as they were and the server's message above the fields; Enter in a field submits.
 */
export function FormModal<V extends object>({
  title,
  open,
  form,
  initialValues,
  width = 560,
  onSubmit,
  onClose,
  children,
  okText = '确定',
}: FormModalProps<V>) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const initialRef = useRef(initialValues);
  initialRef.current = initialValues;
  const { pathname } = useLocation();
  useEffect(() => {
    if (!open) return;
    setError(null);
    form.resetFields();
    form.setFieldsValue(initialRef.current as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, form]);
  // Closing the page's tab while the dialog holds typed values asks first.
  useEffect(() => {
    if (!open) return;
    return setCloseGuard(pathname, () => !form.isFieldsTouched() || confirmUnsaved(title));
  }, [open, pathname, form, title]);
  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSubmit({ ...(initialRef.current as object), ...values } as V);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      title={title}
      open={open}
      width={width}
      onCancel={onClose}
      maskClosable={false}
      forceRender
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={saving} onClick={submit}>
          {okText}
        </Button>,
      ]}
    >
      {error && <Alert className="sys-form-error" type="error" showIcon title={error} role="alert" />}
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ flex: '96px' }}
        onKeyDown={(e) => {
          const target = e.target as HTMLElement;
          // Enter in a picker's search box picks an option; in any other text box it submits.
          if (e.key === 'Enter' && target.tagName === 'INPUT' && !target.closest('.ant-select') && !saving) {
            e.preventDefault();
            void submit();
          }
        }}
      >
        {children}
      </Form>
    </Modal>
  );
}

/** A page's read failure, with a retry, instead of an empty table. */
export function LoadError({ error, retry }: { error: string | null; retry: () => void }) {
  if (!error) return null;
  return (
    <Alert
      className="sys-load-error"
      type="error"
      showIcon
      title={error}
      action={
        <Button size="small" onClick={retry}>
          重试
        </Button>
      }
    />
  );
}

/**
 * Row props of a table whose rows are picked (master and detail): a click, or Enter or Space on the
 * focused row, picks it.
 */
export function pickableRow<T>(pick: (row: T) => void, isSelected: (row: T) => boolean) {
  return (row: T) => ({
    onClick: () => pick(row),
    onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
      if ((e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget) {
        e.preventDefault();
        pick(row);
      }
    },
    tabIndex: 0,
    'aria-selected': isSelected(row),
    style: { cursor: 'pointer' },
  });
}
