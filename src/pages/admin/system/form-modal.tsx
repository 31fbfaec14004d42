import { Alert, Button, Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { RowCrud } from '../../../engine';
import { setCloseGuard } from '../../../navigation/close-guards';
import { notify } from '../../../notify/notifier';
import { failureText } from '../../../request';
import { validateOrReveal } from '../../validate-form';

/** Asks before leaving unsaved work; true when the user agrees to lose it. */
export function confirmUnsaved(what: string): Promise<boolean> {
  return notify.confirm({ title: `${what}尚未保存`, content: '关闭后填写的内容将丢失，确定关闭吗？', okText: '关闭', cancelText: '取消' });
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
    const values = await validateOrReveal(form);
    if (!values) return;
    setSaving(true);
    setError(null);
    try {
      await onSubmit({ ...(initialRef.current as object), ...values } as V);
    } catch (e) {
      setError(failureText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      title={title}
      open={open}
      forceRender
      width={width}
      onCancel={onClose}
      maskClosable={false}
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

/**
 * The add and edit dialog of a system list: 新增{what} or 编辑{what} as the list's CRUD dialog holds it;
 * `save` sends the values, and the CRUD hook says so, closes and reloads.
 */
export function CrudFormModal<V extends object>({
  crud,
  what,
  save,
  ...props
}: Omit<FormModalProps<V>, 'title' | 'open' | 'onSubmit' | 'onClose'> & {
  crud: Pick<RowCrud<unknown>, 'dialog' | 'close' | 'submitting' | 'saved' | 'refused'>;
  what: string;
  save: (values: V, mode: 'add' | 'edit') => Promise<unknown>;
}) {
  const mode = crud.dialog?.mode === 'edit' ? 'edit' : 'add';
  return (
    <FormModal<V>
      {...props}
      title={`${mode === 'edit' ? '编辑' : '新增'}${what}`}
      open={crud.dialog !== null}
      onClose={crud.close}
      onSubmit={async (values) => {
        crud.submitting(mode);
        try {
          await save(values, mode);
        } catch (e) {
          crud.refused(mode);
          throw e;
        }
        crud.saved(mode);
      }}
    />
  );
}
