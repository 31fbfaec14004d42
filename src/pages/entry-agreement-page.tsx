import { Button, Flex, Modal, type ModalProps, Result, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { session } from '../contract/session';
import { notify } from '../notify/notifier';
import { api } from '../request';
import { fetchSessionInfo } from '../session/session-api';
import { sessionStore } from '../session/session-store';
import { getToken } from '../session/token';
import { APP_PATHS, loginPath } from '../shared/app-paths';
import { safeRedirect } from './login/login-helpers';
import { POLICY_TYPE, PolicyView } from './login/policy';

type Phase = 'reading' | 'failed' | 'cancelled' | 'done';

/**
 * /entryAgreement (入驻协议). Two ways in:
 * - from the login page, when the login answered 10001 (the account has not agreed yet): the token
 *   is stored and `deptCode` names the user's department. Agreeing confirms 授权成功，请重新登录
 *   and the user signs in again; cancelling logs out and starts again from the login page.
 * - from another system with an authorisation `code` (and usually `token`, which is stored at
 *   startup like on any route): the authorization agreement is shown; agreeing shows the server's
 *   message; cancelling only asks for confirmation and says 取消成功.
 * Agreeing runs GET /api/guFeiUrl/enter; an answer other than 200 closes the agreement and opens
 * the failure dialog; a failed request shows the server's message (the request layer's toast).
 */
export function EntryAgreementPage() {
  const [modal, modalHolder] = Modal.useModal();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code')?.trim() ?? '';
  const deptCode = params.get('deptCode')?.trim() ?? '';
  const redirect = safeRedirect(params.get('redirect'));
  const [hasSession] = useState(() => Boolean(getToken()));
  const [phase, setPhase] = useState<Phase>('reading');
  const [failure, setFailure] = useState('');
  const [doneMessage, setDoneMessage] = useState('');
  const [agreeing, setAgreeing] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const title = code ? '授权协议' : '入驻协议';
  const loginUrl = redirect === APP_PATHS.root ? loginPath() : loginPath(redirect);

  const relogin = async () => {
    setLeaving(true);
    await sessionStore.logout();
    window.location.assign(loginUrl);
  };

  const agree = async () => {
    setAgreeing(true);
    let res: { status?: number; message?: string } | undefined;
    try {
      // Opened without either (a call refused as pending led here): the account's own department.
      const ownDept = code || deptCode ? undefined : ((await fetchSessionInfo()).user.deptCode ?? undefined);
      res = await api(session.calls.enter, { query: code ? { code } : { deptCode: deptCode || ownDept } });
    } catch {
      // The request layer has shown the server's message as an error toast; the agreement stays open.
      setAgreeing(false);
      return;
    }
    setAgreeing(false);
    if (res?.status !== 200) {
      setFailure(res?.message || '授权失败，请稍后重试');
      setPhase('failed');
      return;
    }
    setPhase('done');
    if (code) {
      setDoneMessage(res.message || '授权成功');
      notify.success(res.message || '授权成功');
      return;
    }
    setDoneMessage('授权成功，请重新登录');
    modal.success({
      title: '提示',
      content: '授权成功，请重新登录',
      okText: '重新登录',
      closable: false,
      keyboard: false,
      onOk: relogin,
    });
  };

  const cancel = async () => {
    if (!code) {
      await relogin();
      return;
    }
    const ok = await modal.confirm({
      title: '提示',
      content: '确定取消本次授权吗？',
      okText: '确定',
      cancelText: '取消',
    });
    if (!ok) return;
    notify.success('取消成功');
    setPhase('cancelled');
  };

  if (!hasSession) {
    return (
      <Result
        status="info"
        title="请先登录"
        subTitle={`阅读并同意${title}需要先登录系统。`}
        extra={
          <Button type="primary" onClick={() => navigate(loginUrl)}>
            前往登录
          </Button>
        }
      />
    );
  }

  let page: React.ReactNode = null;
  if (phase === 'done') {
    page = code ? (
      <Result
        status="success"
        title="授权成功"
        subTitle={doneMessage}
        extra={
          <Button type="primary" onClick={() => navigate(redirect, { replace: true })}>
            进入系统
          </Button>
        }
      />
    ) : (
      <Result
        status="success"
        title="授权成功"
        subTitle={doneMessage}
        extra={
          <Button type="primary" loading={leaving} onClick={() => void relogin()}>
            重新登录
          </Button>
        }
      />
    );
  } else if (phase === 'cancelled') {
    page = (
      <Result
        status="info"
        title="已取消授权"
        subTitle="您可以关闭本页面；如需继续，请重新阅读并同意授权协议。"
        extra={<Button onClick={() => setPhase('reading')}>重新阅读协议</Button>}
      />
    );
  }

  return (
    <Flex justify="center" align="center" style={{ minHeight: '100vh', padding: 16, background: '#f5f7fa' }}>
      {page}
      {modalHolder}
      <ButtonsOnlyModal
        title={title}
        open={phase === 'reading'}
        width={900}
        footer={[
          <Button key="cancel" onClick={() => void cancel()} loading={leaving} disabled={agreeing}>
            取消
          </Button>,
          <Button key="agree" type="primary" onClick={() => void agree()} loading={agreeing} disabled={leaving}>
            同意
          </Button>,
        ]}
      >
        <Typography.Paragraph type="secondary">请仔细阅读以下协议内容，同意后方可使用平台。</Typography.Paragraph>
        <div style={{ maxHeight: '60vh', overflowY: 'auto', paddingRight: 8 }}>
          <PolicyView type={code ? POLICY_TYPE.authorization : POLICY_TYPE.join} />
        </div>
      </ButtonsOnlyModal>
      <ButtonsOnlyModal
        title={code ? '授权失败' : '入驻失败'}
        open={phase === 'failed'}
        width={480}
        footer={[
          <Button key="logout" onClick={() => void relogin()} loading={leaving}>
            退出登录
          </Button>,
          <Button key="again" type="primary" onClick={() => setPhase('reading')} disabled={leaving}>
            重新阅读协议
          </Button>,
        ]}
      >
        <Result status="error" title={failure} subTitle="请稍后重试，或联系平台管理员。" style={{ padding: '16px 0' }} />
      </ButtonsOnlyModal>
    </Flex>
  );
}

/** The agreement's dialogs are left through their buttons only: no close icon, no Escape, no mask click. */
function ButtonsOnlyModal(props: ModalProps) {
  return <Modal centered closable={false} keyboard={false} mask={{ closable: false }} {...props} />;
}
