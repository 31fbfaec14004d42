import { SettingOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Form, Input, Result, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { session } from '../contract/session';
import { notify } from '../notify/notifier';
import { api } from '../request';
import { checkInit } from '../session/session-api';
import { APP_PATHS } from '../shared/app-paths';
import { requiredText } from './text-rules';

interface InitValues {
  systemName: string;
}

type Phase = 'checking' | 'needed' | 'done' | 'unknown';

/**
 * /init: the system initialisation settings the reference server accepts (POST /api/init with
 * the system name; public until the system is initialised, refused afterwards).
 */
export function InitPage() {
  const navigate = useNavigate();
  const [form] = Form.useForm<InitValues>();
  const [phase, setPhase] = useState<Phase>('checking');
  const [saving, setSaving] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    void attempt;
    setPhase('checking');
    checkInit()
      .then((res) => live && setPhase(res?.data?.inited ? 'done' : 'needed'))
      .catch(() => live && setPhase('unknown'));
    return () => {
      live = false;
    };
  }, [attempt]);

  const onFinish = async (values: InitValues) => {
    setSaving(true);
    try {
      const res = await api(session.calls.init, { body: { systemName: values.systemName.trim() } });
      notify.success(res?.message || '初始化成功');
      navigate(APP_PATHS.login, { replace: true });
    } catch {
      // The request layer has shown the server's message; if someone else finished first, say so.
      setSaving(false);
      setAttempt((n) => n + 1);
    }
  };

  const back = (
    <Button key="back" onClick={() => navigate(APP_PATHS.login)}>
      返回登录
    </Button>
  );

  let body: React.ReactNode;
  if (phase === 'checking') body = <Skeleton active paragraph={{ rows: 3 }} />;
  else if (phase === 'done')
    body = (
      <Result
        status="success"
        title="系统已完成初始化"
        subTitle="初始化设置只能进行一次，之后的修改请由管理员在系统中完成。"
        extra={
          <Button type="primary" onClick={() => navigate(APP_PATHS.login)}>
            前往登录
          </Button>
        }
      />
    );
  else if (phase === 'unknown')
    body = (
      <Result
        status="warning"
        title="无法获取系统初始化状态"
        subTitle="请检查网络或稍后重试。"
        extra={[
          <Button key="retry" type="primary" onClick={() => setAttempt((n) => n + 1)}>
            重试
          </Button>,
          back,
        ]}
      />
    );
  else
    body = (
      <>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          <SettingOutlined /> 系统尚未初始化
        </Typography.Title>
        <Typography.Paragraph type="secondary">完成以下设置后即可登录使用系统。初始化只能进行一次。</Typography.Paragraph>
        <Form<InitValues> form={form} name="init" layout="vertical" onFinish={onFinish} disabled={saving} requiredMark>
          <Form.Item
            label="系统名称"
            name="systemName"
            initialValue="危废智慧监管服务平台"
            rules={requiredText('请输入系统名称', 100, '系统名称过长')}
          >
            <Input placeholder="请输入系统名称" maxLength={100} autoFocus />
          </Form.Item>
          <Flex gap={8} justify="flex-end">
            {back}
            <Button type="primary" htmlType="submit" loading={saving}>
              完成初始化
            </Button>
          </Flex>
        </Form>
      </>
    );

  return (
    <Flex justify="center" align="center" style={{ minHeight: '100vh', padding: 16, background: '#f5f7fa' }}>
      <Card title="系统初始化" style={{ width: '100%', maxWidth: 520 }}>
        {body}
      </Card>
    </Flex>
  );
}
