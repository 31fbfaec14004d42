import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Checkbox, ConfigProvider, Flex, Form, type InputRef, Spin } from 'antd';
// The input and the password input by themselves: antd's Input also carries the search box, the
// one-time-code input and the text area, which the login route does not show.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { session } from '../../contract/bare.gen';
import { ERROR_SECONDS, notify } from '../../notify/notifier';
import { api, RequestError } from '../../request';
import { queryTokenSettled } from '../../session/query-token';
import { checkInit, type LoginResult, login } from '../../session/session-api';
import { sessionStore } from '../../session/session-store';
import { getToken, setToken } from '../../session/token';
import { APP_PATHS } from '../../shared/app-paths';
import { CaptchaImage, useCaptcha } from './captcha';
import { errorText, rememberedUsername, rememberUsername, safeRedirect } from './login-helpers';
import { useSite } from './site';

// The dialogs (cascader, tabs, select…) load when first opened, keeping them out of the login
// route's initial JS.
const ApplyDialog = lazy(() => import('./apply-dialog').then((m) => ({ default: m.ApplyDialog })));
const PasswordDialog = lazy(() => import('../../session/password-dialog').then((m) => ({ default: m.PasswordDialog })));

/** What the login page is given: the loader of the back office's frame, which the app owns. */
export interface LoginPageProps {
  preloadFrame?: () => Promise<unknown>;
}

/**
 * The back office's frame and, when the user is headed there, the dashboard start loading with the
 * login call instead of after it. Dynamic imports: they stay out of the login route's own JS.
 */
function preloadAfterLogin(target: string, preloadFrame: LoginPageProps['preloadFrame']): void {
  void preloadFrame?.().catch(() => {});
  if (target.startsWith(APP_PATHS.dashboard)) void import('../dashboard/dashboard-page').catch(() => {});
}

interface LoginValues {
  username: string;
  password: string;
  code: string;
  rememberMe: boolean;
}

/** What the login answer's `user` carries that this page reads (server: accounts-users.ts userInfoSchema). */
interface LoginUser {
  isAdmin?: boolean;
  permission?: string | null;
  pwdExpired?: boolean;
  deptCode?: string | null;
  phone?: string | null;
}

/** The password expired: the user changes it (forced dialog) before going on, or logs out. */
interface ExpiredPassword {
  admin: boolean;
  phone: string;
}

/** The login page's background, tinted with the entry site's colour. */
/** The login panel's looks (those of antd's Card and Typography, which the login route does without). */
const CARD: React.CSSProperties = {
  width: '100%',
  maxWidth: 400,
  padding: 24,
  background: '#fff',
  border: '1px solid #f0f0f0',
  borderRadius: 8,
  boxSizing: 'border-box',
};
const TITLE: React.CSSProperties = {
  textAlign: 'center',
  margin: '0 0 4px',
  fontSize: 24,
  fontWeight: 600,
  lineHeight: 1.35,
  color: 'rgba(0,0,0,0.88)',
};
const SECONDARY: React.CSSProperties = { color: 'rgba(0,0,0,0.45)' };

const pageStyle = (color: string): React.CSSProperties => ({
  minHeight: '100vh',
  padding: '24px 16px',
  background: `linear-gradient(135deg, ${color}26 0%, #f7f9fc 100%)`,
});

function LoginScreen({ notice, preloadFrame }: LoginPageProps & { notice?: ReactNode }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<LoginValues>();
  // Decided on arrival only: the token this page stores itself must not bounce the user away.
  const [arrivedWithToken] = useState(() => Boolean(getToken()));
  const [checking, setChecking] = useState(!arrivedWithToken);
  const [submitting, setSubmitting] = useState(false);
  const [applyOpen, setApplyOpen] = useState(false);
  const [applyMounted, setApplyMounted] = useState(false);
  const [expired, setExpired] = useState<ExpiredPassword | null>(null);
  const [remembered] = useState(rememberedUsername);
  const captcha = useCaptcha();
  const passwordRef = useRef<InputRef>(null);
  const codeRef = useRef<InputRef>(null);
  const target = safeRedirect(params.get('redirect'));
  const site = useSite();

  useEffect(() => {
    if (arrivedWithToken) return;
    let live = true;
    checkInit()
      .then((res) => {
        if (live && res?.data?.inited === false) navigate(APP_PATHS.init, { replace: true });
      })
      // An unreachable check must not lock users out of the login form (the request layer has said why).
      .catch(() => {})
      .finally(() => {
        if (live) setChecking(false);
      });
    return () => {
      live = false;
    };
  }, [arrivedWithToken, navigate]);

  if (arrivedWithToken) return <Navigate to={APP_PATHS.root} replace />;

  const failed = (reason: string) => {
    setSubmitting(false);
    // A captcha is good for one attempt; a refused password is not worth keeping either.
    const captchaProblem = reason.includes('验证码');
    form.setFieldsValue(captchaProblem ? { code: '' } : { code: '', password: '' });
    (captchaProblem ? codeRef : passwordRef).current?.focus();
    void captcha.refresh();
  };

  const onFinish = async (values: LoginValues) => {
    if (!captcha.captcha) {
      await captcha.refresh();
      return;
    }
    setSubmitting(true);
    preloadAfterLogin(target, preloadFrame);
    let res: LoginResult;
    try {
      res = await login({
        username: values.username.trim(),
        password: values.password,
        code: values.code.trim(),
        uuid: captcha.captcha.uuid,
        rememberMe: values.rememberMe,
      });
    } catch (e) {
      // The login call is silent: the server's message (用户名或密码错误, 验证码错误…) is shown here.
      const reason = errorText(e, '登录失败');
      notify.error(reason, ERROR_SECONDS);
      failed(reason);
      return;
    }
    if ((res.status === 200 || res.status === 10001) && res.token) {
      rememberUsername(values.rememberMe ? values.username.trim() : null);
      // Whatever a previous user left in memory goes; the guard loads this user's info and menus.
      sessionStore.clear();
      setToken(res.token);
      const user = (res.user ?? {}) as LoginUser;
      if (res.status === 10001) {
        // The account must agree to the entry agreement first (server/resources/session.ts).
        const query = new URLSearchParams();
        if (user.deptCode) query.set('deptCode', user.deptCode);
        if (target !== APP_PATHS.root) query.set('redirect', target);
        const qs = query.toString();
        navigate(`${APP_PATHS.entryAgreement}${qs ? `?${qs}` : ''}`, { replace: true });
        return;
      }
      if (res.pwdExpired || user.pwdExpired) {
        setSubmitting(false);
        setExpired({ admin: Boolean(user.isAdmin || res.roles?.includes('admin')), phone: user.phone ?? '' });
        return;
      }
      // The home's figures go out with the session's calls instead of after them, the session's first:
      // the browser runs six calls at a time per server, and the page waits for the session.
      if (target.startsWith(APP_PATHS.dashboard)) {
        void sessionStore.load();
        void import('../dashboard/dashboard-page').then((m) => m.prefetchHome(user)).catch(() => {});
      }
      navigate(target, { replace: true });
      return;
    }
    notify.error(res.message || '登录失败', ERROR_SECONDS);
    failed(res.message ?? '');
  };

  const openApply = () => {
    setApplyMounted(true);
    setApplyOpen(true);
  };

  return (
    <ConfigProvider theme={{ token: { colorPrimary: site.color } }}>
      <Flex vertical justify="center" align="center" gap={16} style={pageStyle(site.color)} data-site={site.kind}>
        {/* A plain panel, not antd's Card and Typography: those bring tabs, menus and tooltips to the login route. */}
        <section
          style={{
            ...CARD,
            boxShadow: `0 8px 24px ${site.color}1f`,
            borderTop: `3px solid ${site.color}`,
          }}
        >
          <h3 style={TITLE}>wastegen 危废管理平台</h3>
          <Flex justify="center" style={{ marginBottom: 4 }}>
            <span
              className="wg-site-label"
              style={{ padding: '1px 10px', borderRadius: 4, color: '#fff', background: site.color, fontSize: 12, lineHeight: '20px' }}
            >
              {site.label}
            </span>
          </Flex>
          <p style={{ ...SECONDARY, textAlign: 'center', margin: '0 0 14px' }}>账号登录</p>
          {notice}
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
                <Input prefix={<UserOutlined />} placeholder="账号" autoComplete="username" autoFocus={!remembered} maxLength={64} />
              </Form.Item>
              <Form.Item name="password" rules={[{ required: true, message: '密码不能为空' }]}>
                <Password
                  ref={passwordRef}
                  prefix={<LockOutlined />}
                  placeholder="密码"
                  autoComplete="current-password"
                  autoFocus={Boolean(remembered)}
                />
              </Form.Item>
              <Flex gap={8} align="flex-start">
                <Form.Item name="code" rules={[{ required: true, whitespace: true, message: '验证码不能为空' }]} style={{ flex: 1 }}>
                  <Input ref={codeRef} prefix={<SafetyOutlined />} placeholder="验证码" autoComplete="off" maxLength={8} />
                </Form.Item>
                <CaptchaImage state={captcha} />
              </Flex>
              <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
                <Form.Item name="rememberMe" valuePropName="checked" noStyle>
                  <Checkbox>记住我</Checkbox>
                </Form.Item>
                <Button type="link" size="small" onClick={openApply} style={{ padding: 0, height: 'auto' }}>
                  申请入驻
                </Button>
              </Flex>
              <Form.Item style={{ marginBottom: 0 }}>
                <Button type="primary" htmlType="submit" block loading={submitting}>
                  登录
                </Button>
              </Form.Item>
            </Form>
          </Spin>
        </section>
        <span style={{ ...SECONDARY, fontSize: 12 }}>
          登录即表示您同意
          <Link to={APP_PATHS.serviceAgreement} target="_blank">
            《服务协议》
          </Link>
          和
          <Link to={APP_PATHS.privacyPolicy} target="_blank">
            《隐私政策》
          </Link>
        </span>
        {applyMounted && (
          <Suspense fallback={null}>
            <ApplyDialog open={applyOpen} onClose={() => setApplyOpen(false)} />
          </Suspense>
        )}
        {expired && (
          <Suspense fallback={<Spin fullscreen />}>
            <PasswordDialog open forced admin={expired.admin} initialPhone={expired.phone} />
          </Suspense>
        )}
      </Flex>
    </ConfigProvider>
  );
}

/** /login: account, password, captcha and remember-me. */
export function LoginPage({ preloadFrame }: LoginPageProps) {
  return <LoginScreen preloadFrame={preloadFrame} />;
}

/**
 * /login2, the automatic-login variant.
 *
 * Contract: a system that has already signed the user in opens
 *   /login2?token={token}&redirect={path}
 * with a session token of this server (as the login call answers it, with or without
 * "Bearer "). As on every route, the token is taken out of the address and stored at startup
 * (src/session/query-token.ts); this page checks it with the server (`session.info`) and goes on
 * to `redirect` (same-origin paths only) or `/`. Without a token, or when the server
 * refuses it, the normal login form is shown, with a notice in the second case.
 *
 * Accounts and passwords in the address are deliberately not accepted: they would be kept in
 * browser history, proxy logs and Referer headers, and the login call needs a captcha anyway.
 */
export function Login2Page({ preloadFrame }: LoginPageProps) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [phase, setPhase] = useState<'checking' | 'form' | 'refused'>(() => (getToken() ? 'checking' : 'form'));
  const [failure, setFailure] = useState('');
  const target = safeRedirect(params.get('redirect'));

  useEffect(() => {
    if (phase !== 'checking') return;
    let live = true;
    // Checked quietly: a refused token is the expected case here, not an expired session to
    // offer re-login for; the form below is the way on. The guard then loads the session. The token
    // checked is the one kept once a link's token of another account has been decided.
    queryTokenSettled()
      .then(() => api(session.info, {}, { silent: true, skipAuthHandlers: true }))
      .then(() => {
        if (live) navigate(target, { replace: true });
      })
      .catch((e: unknown) => {
        if (!live) return;
        sessionStore.clear();
        setFailure(e instanceof RequestError && e.status === 401 ? '登录凭证无效或已过期' : errorText(e, '接口请求失败'));
        setPhase('refused');
      });
    return () => {
      live = false;
    };
  }, [phase, navigate, target]);

  if (phase === 'checking') return <Spin fullscreen description="正在自动登录…" />;
  return (
    <LoginScreen
      preloadFrame={preloadFrame}
      notice={
        phase === 'refused' ? (
          <p
            role="alert"
            style={{ padding: '8px 12px', color: '#d48806', background: '#fffbe6', border: '1px solid #ffe58f', borderRadius: 6 }}
          >
            自动登录失败：{failure}，请使用账号密码登录
          </p>
        ) : undefined
      }
    />
  );
}
