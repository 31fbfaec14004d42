import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { App, Button, Card, Checkbox, Flex, Form, Input, Spin, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { type Captcha, checkInit, fetchCaptcha, login } from '../../session/session-api';
import { getToken, setToken } from '../../session/token';

interface LoginValues {
  username: string;
  password: string;
  code: string;
  rememberMe: boolean;
}

const REMEMBERED_USERNAME = 'rememberedUsername';

/** Only same-origin paths: a crafted `redirect=//evil.example` must not send the user away. */
function safeRedirect(value: string | null): string {
  return value?.startsWith('/') && !value.startsWith('//') ? value : '/';
}

function rememberedUsername(): string {
  try {
    return localStorage.getItem(REMEMBERED_USERNAME) ?? '';
  } catch {
    return '';
  }
}

function rememberUsername(username: string | null): void {
  try {
    if (username) localStorage.setItem(REMEMBERED_USERNAME, username);
    else localStorage.removeItem(REMEMBERED_USERNAME);
  } catch {
    // Remembering is a convenience; blocked storage just means the field starts empty.
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : '登录失败';
}

export function LoginPage() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<LoginValues>();
  const [checking, setChecking] = useState(true);
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const hasToken = Boolean(getToken());

  const refreshCaptcha = useCallback(async () => {
    try {
      setCaptcha(await fetchCaptcha());
    } catch (e) {
      message.error(errorMessage(e));
    }
  }, [message]);

  useEffect(() => {
    if (hasToken) return;
    let live = true;
    checkInit()
      .then((res) => {
        if (live && res.data?.inited === false) navigate('/init', { replace: true });
      })
      // An unreachable check must not lock users out of the login form.
      .catch(() => {})
      .finally(() => {
        if (live) setChecking(false);
      });
    void refreshCaptcha();
    return () => {
      live = false;
    };
  }, [hasToken, navigate, refreshCaptcha]);

  if (hasToken) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;

  const onFinish = async (values: LoginValues) => {
    if (!captcha) {
      await refreshCaptcha();
      return;
    }
    setSubmitting(true);
    try {
      const res = await login({ username: values.username, password: values.password, code: values.code, uuid: captcha.uuid });
      if (res.status === 200 && res.token) {
        setToken(res.token);
        rememberUsername(values.rememberMe ? values.username : null);
        navigate(safeRedirect(params.get('redirect')), { replace: true });
        return;
      }
      message.error(res.message || '登录失败');
    } catch (e) {
      message.error(errorMessage(e));
    }
    setSubmitting(false);
    form.setFieldValue('code', '');
    await refreshCaptcha();
  };

  const remembered = rememberedUsername();

  return (
    <Flex justify="center" align="center" style={{ minHeight: '100vh', background: 'linear-gradient(135deg, #eaf1ff 0%, #f7f9fc 100%)' }}>
      <Card style={{ width: 400, boxShadow: '0 8px 24px rgba(47, 110, 255, 0.12)' }}>
        <Typography.Title level={3} style={{ textAlign: 'center', marginBottom: 4 }}>
          wastegen 危废管理平台
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          账号登录
        </Typography.Paragraph>
        <Spin spinning={checking}>
          <Form<LoginValues>
            form={form}
            name="login"
            size="large"
            initialValues={{ username: remembered, rememberMe: Boolean(remembered) }}
            onFinish={onFinish}
            autoComplete="on"
          >
            <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '用户名不能为空' }]}>
              <Input prefix={<UserOutlined />} placeholder="账号" autoComplete="username" />
            </Form.Item>
            <Form.Item name="password" rules={[{ required: true, message: '密码不能为空' }]}>
              <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" />
            </Form.Item>
            <Flex gap={8} align="flex-start">
              <Form.Item name="code" rules={[{ required: true, whitespace: true, message: '验证码不能为空' }]} style={{ flex: 1 }}>
                <Input prefix={<SafetyOutlined />} placeholder="验证码" autoComplete="off" />
              </Form.Item>
              <button
                type="button"
                title="看不清？点击刷新"
                onClick={() => void refreshCaptcha()}
                style={{ padding: 0, border: '1px solid #d9d9d9', borderRadius: 6, background: '#fff', cursor: 'pointer', height: 40 }}
              >
                {captcha ? (
                  <img src={captcha.img} alt="验证码" data-uuid={captcha.uuid} style={{ display: 'block', height: 38, width: 111 }} />
                ) : (
                  <span style={{ display: 'block', width: 111 }} />
                )}
              </button>
            </Flex>
            <Form.Item name="rememberMe" valuePropName="checked">
              <Checkbox>记住我</Checkbox>
            </Form.Item>
            <Form.Item style={{ marginBottom: 0 }}>
              <Button type="primary" htmlType="submit" block loading={submitting}>
                登录
              </Button>
            </Form.Item>
          </Form>
        </Spin>
      </Card>
    </Flex>
  );
}

/** /login2: the variant that signs in automatically (core-platform §2); filled in with the session pages. */
export function Login2Page() {
  return <LoginPage />;
}
