import { Button, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { users } from '../contract/users';
import { notify } from '../notify/notifier';
import { api } from '../request';
import { APP_PATHS, loginPath } from '../shared/app-paths';
import { dialogFormLayout } from '../shared/form-layout';
import { isStrongPassword, PASSWORD_RULE_MESSAGE } from '../shared/password-rule';
import { PERSON_MESSAGES, PHONE_RE } from '../shared/person-rule';
import { encryptPassword } from './encrypt-password';
import { fetchPublicKey } from './session-api';
import { sessionStore, useSession } from './session-store';

/** The answer to a changed password; the logout follows after 1.5 s. */
export const PASSWORD_CHANGED = '密码修改成功，请重新登录';
export const LOGOUT_DELAY_MS = 1500;

interface PasswordValues {
  oldPass: string;
  newPass: string;
  confirmPass: string;
  phone?: string;
}

export interface PasswordDialogProps {
  open: boolean;
  /**
   * The password has expired: the dialog cannot be dismissed; the user changes the password or
   * logs out.
   */
  forced?: boolean;
  /** Shows the phone field (administrators only). Defaults to the session's roles holding `admin`. */
  admin?: boolean;
  /** Prefills the administrator's phone. Defaults to the session user's. */
  initialPhone?: string;
  /** Called when the dialog is dismissed (never in forced mode). */
  onClose?: () => void;
}

/** Where to sign in again: back to this page afterwards, unless this is the login page already. */
function loginUrl(): string {
  const { pathname, search } = window.location;
  if (pathname === APP_PATHS.login || pathname === APP_PATHS.login2) return `${APP_PATHS.login}${search}`;
  return loginPath(pathname + search);
}

/**
 * Change password: old, new and confirm; the phone for
 * administrators. Both passwords travel RSA-encrypted, as the server decrypts them
 * (the users contract's changePassword). On success the server ends every session of the user, so
 * after 1.5 s this one is cleared locally and the user signs in again.
 *
 * Used by the login page (expired password, forced) and by the shell's avatar menu and personal
 * centre: `<PasswordDialog open={open} onClose={() => setOpen(false)} />`.
 */
export function PasswordDialog({ open, forced = false, admin, initialPhone, onClose }: PasswordDialogProps) {
  const session = useSession();
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const isAdmin = admin ?? (session.roles.includes('admin') || Boolean(session.info?.user.isAdmin));
  const phone = initialPhone ?? (session.info?.user as { phone?: string | null } | undefined)?.phone ?? '';

  useEffect(() => {
    if (open && isAdmin && !form.getFieldValue('phone')) form.setFieldValue('phone', phone);
  }, [open, isAdmin, phone, form]);

  const close = () => {
    if (forced || saving || done) return;
    form.resetFields();
    onClose?.();
  };

  const logout = async () => {
    setLeaving(true);
    await sessionStore.logout();
    window.location.assign(loginUrl());
  };

  const onFinish = async (values: PasswordValues) => {
    setSaving(true);
    try {
      const key = await fetchPublicKey();
      const [oldPass, newPass] = await Promise.all([encryptPassword(key, values.oldPass), encryptPassword(key, values.newPass)]);
      await api(users.calls.changePassword, {
        body: { oldPass, newPass, ...(isAdmin && values.phone ? { phone: values.phone.trim() } : {}) },
      });
    } catch {
      // The request layer has shown why (旧密码错误…); only the loading state resets.
      setSaving(false);
      return;
    }
    setDone(true);
    notify.success(PASSWORD_CHANGED);
    window.setTimeout(() => {
      // The server has ended every session of this user: a logout call would only meet a 401
      // (and the re-login confirm), so the session is cleared here.
      sessionStore.clear();
      window.location.assign(loginUrl());
    }, LOGOUT_DELAY_MS);
  };

  const busy = saving || done;
  return (
    <Modal
      title="修改密码"
      open={open}
      width={480}
      onCancel={close}
      closable={!forced}
      keyboard={!forced}
      mask={{ closable: false }}
      forceRender
      footer={[
        forced ? (
          <Button key="logout" onClick={() => void logout()} loading={leaving} disabled={busy}>
            退出登录
          </Button>
        ) : (
          <Button key="cancel" onClick={close} disabled={busy}>
            取消
          </Button>
        ),
        <Button key="ok" type="primary" loading={busy} onClick={() => form.submit()}>
          确认修改
        </Button>,
      ]}
    >
      {forced && (
        <Typography.Paragraph type="warning" style={{ marginTop: 8 }}>
          您的密码已过期，请修改密码后继续使用系统。
        </Typography.Paragraph>
      )}
      <Form<PasswordValues> form={form} name="password-change" {...dialogFormLayout(88)} onFinish={onFinish} disabled={busy}>
        <Form.Item label="旧密码" name="oldPass" rules={[{ required: true, message: '请输入旧密码' }]}>
          <Input.Password placeholder="请输入旧密码" autoComplete="current-password" autoFocus />
        </Form.Item>
        <Form.Item
          label="新密码"
          name="newPass"
          dependencies={['oldPass']}
          // The hint and the error say the rule in the same words.
          extra={PASSWORD_RULE_MESSAGE}
          rules={[
            { required: true, message: '请输入新密码' },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) => {
                if (!value) return Promise.resolve();
                if (!isStrongPassword(value)) return Promise.reject(new Error(PASSWORD_RULE_MESSAGE));
                if (value === getFieldValue('oldPass')) return Promise.reject(new Error('新密码不能与旧密码相同'));
                return Promise.resolve();
              },
            }),
          ]}
        >
          <Input.Password placeholder="请输入新密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认密码"
          name="confirmPass"
          dependencies={['newPass']}
          rules={[
            { required: true, message: '请再次输入密码' },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('newPass') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一致')),
            }),
          ]}
        >
          <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
        </Form.Item>
        {isAdmin && (
          <Form.Item
            label="手机号码"
            name="phone"
            rules={[
              { required: true, whitespace: true, message: '请输入电话号码' },
              { pattern: PHONE_RE, message: PERSON_MESSAGES.phoneFormat },
            ]}
          >
            <Input placeholder="请输入电话号码" maxLength={11} inputMode="numeric" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * Opens the forced dialog whenever the signed-in user's password has expired (session info
 * `user.pwdExpired`), so that a reload after login does not get round it. For the shell's layout.
 */
export function ExpiredPasswordPrompt() {
  const session = useSession();
  const expired = session.status === 'ready' && Boolean(session.info?.user.pwdExpired);
  return expired ? <PasswordDialog open forced /> : null;
}
