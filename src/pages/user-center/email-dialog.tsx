import { Button, Form, Input, Modal, Space } from 'antd';
import { useEffect, useState } from 'react';
import { dialogFormLayout } from '../../shared/form-layout';
import { useReportedCall } from '../use-reported-call';
import { MESSAGES, newEmailError, secondsLeft } from './rules';
import { sendEmailCode, updateEmail } from './user-center-api';

interface EmailValues {
  email: string;
  code: string;
  pass: string;
}

export interface EmailDialogProps {
  open: boolean;
  currentEmail: string | null;
  onClose: () => void;
  onChanged: () => void;
}

/** Which field a refusal of the server belongs to, so that it shows under that field. */
function fieldOf(message: string): keyof EmailValues | null {
  if (message.includes('验证码')) return 'code';
  if (message.includes('密码')) return 'pass';
  if (message.includes('邮箱')) return 'email';
  return null;
}

/**
 * Change e-mail: the new address, a code sent to it (the button waits 60 s with a countdown, then
 * reads 重新发送; the code is valid 5 minutes) and the current password.
 */
export function EmailDialog({ open, currentEmail, onClose, onChanged }: EmailDialogProps) {
  const [form] = Form.useForm<EmailValues>();
  const [sentAt, setSentAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [sending, sendCode] = useReportedCall();
  const [saving, save] = useReportedCall();
  const left = secondsLeft(sentAt, now);

  useEffect(() => {
    if (!left) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [left]);

  const emailRule = {
    validator: (_: unknown, value: string | undefined) => {
      const error = newEmailError(value, currentEmail);
      return error ? Promise.reject(new Error(error)) : Promise.resolve();
    },
  };

  const send = async () => {
    try {
      await form.validateFields(['email']);
    } catch {
      return;
    }
    await sendCode(() => sendEmailCode(form.getFieldValue('email').trim()), {
      done: MESSAGES.codeSent,
      answered: () => {
        const t = Date.now();
        setSentAt(t);
        setNow(t);
      },
      refused: (text) => fieldOf(text) === 'email' && form.setFields([{ name: 'email', errors: [text] }]),
    });
  };

  const submit = (values: EmailValues) =>
    save(() => updateEmail(values), {
      done: MESSAGES.emailDone,
      answered: () => {
        form.resetFields();
        setSentAt(null);
        onChanged();
        onClose();
      },
      refused: (text) => {
        const field = fieldOf(text);
        if (field) form.setFields([{ name: field, errors: [text] }]);
      },
    });

  const sendLabel = left ? `${left}秒后重新发送` : sentAt === null ? '获取验证码' : '重新发送';
  return (
    <Modal
      title="修改邮箱"
      open={open}
      width={480}
      onCancel={() => !saving && onClose()}
      forceRender
      okText="确认修改"
      confirmLoading={saving}
      onOk={() => form.submit()}
      mask={{ closable: false }}
    >
      <Form<EmailValues> form={form} name="email-change" {...dialogFormLayout(88)} onFinish={(v) => void submit(v)}>
        <Form.Item label="新邮箱" name="email" validateFirst rules={[emailRule]}>
          <Input placeholder="请输入新邮箱" autoComplete="email" autoFocus />
        </Form.Item>
        <Form.Item label="验证码" required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="code" noStyle rules={[{ required: true, whitespace: true, message: MESSAGES.codeRequired }]}>
              <Input placeholder="请输入验证码" maxLength={6} inputMode="numeric" aria-label="验证码" />
            </Form.Item>
            <Button onClick={() => void send()} loading={sending} disabled={left > 0} style={{ minWidth: 128 }}>
              {sendLabel}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item label="当前密码" name="pass" rules={[{ required: true, message: MESSAGES.passRequired }]}>
          <Input.Password placeholder="请输入当前密码" autoComplete="current-password" />
        </Form.Item>
        <div style={{ color: 'var(--ant-color-text-tertiary, #999)', fontSize: 12 }}>验证码发送至新邮箱，5分钟内有效</div>
        {/* Enter in a field submits, as the dialog's own button does. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
