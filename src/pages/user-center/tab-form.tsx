import { Button, Form, type FormInstance } from 'antd';
import type { ReactNode } from 'react';

/** A form rule from a check that answers the error's text, or null when the value is good. */
export const check = (fn: (v: string | undefined) => string | null) => ({
  validator: (_: unknown, value: string | undefined) => {
    const error = fn(value);
    return error ? Promise.reject(new Error(error)) : Promise.resolve();
  },
});

/**
 * A form of the personal centre's tabs: labels 88 px wide, at most 520 px, no autofill, and its
 * save button last with `after` beside it.
 */
export function TabForm<V>({
  form,
  name,
  onSubmit,
  saving,
  save,
  after,
  children,
}: {
  form: FormInstance<V>;
  name: string;
  onSubmit: (values: V) => void;
  saving: boolean;
  /** The save button's text. */
  save: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Form<V>
      form={form}
      name={name}
      labelCol={{ flex: '88px' }}
      style={{ maxWidth: 520, marginTop: 8 }}
      onFinish={onSubmit}
      autoComplete="off"
    >
      {children}
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving}>
          {save}
        </Button>
        {after}
      </Form.Item>
    </Form>
  );
}
