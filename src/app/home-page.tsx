import { LogoutOutlined } from '@ant-design/icons';
import { App, Button, Card, Descriptions, Flex, Result, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { RequestError } from '../request';
import { fetchSessionInfo, logout, type SessionInfo } from '../session/session-api';
import { clearToken } from '../session/token';

/** Placeholder home: proves the session round trip until the real shell and dashboard arrive. */
export function HomePage() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [info, setInfo] = useState<SessionInfo | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      setInfo(await fetchSessionInfo());
    } catch (e) {
      // A 401 is handled by the request layer (token cleared, back to /login).
      if (!(e instanceof RequestError && e.status === 401)) setError(e instanceof Error ? e.message : String(e));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const confirmLogout = () => {
    modal.confirm({
      title: '提示',
      content: '确定注销并退出系统吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        // The session ends locally even when the server cannot be reached.
        await logout().catch(() => {});
        clearToken();
        navigate('/login', { replace: true });
      },
    });
  };

  if (error) {
    return (
      <Result
        status="error"
        title="用户信息加载失败"
        subTitle={error}
        extra={
          <Button type="primary" onClick={() => void load()}>
            重试
          </Button>
        }
      />
    );
  }
  if (!info) {
    return (
      <Flex justify="center" align="center" style={{ minHeight: '60vh' }}>
        <Spin size="large" />
      </Flex>
    );
  }

  return (
    <Flex justify="center" style={{ padding: '48px 16px', minHeight: '100vh', background: '#f5f7fa' }}>
      <Card style={{ width: 720, height: 'fit-content' }}>
        <Flex justify="space-between" align="center" wrap gap={16}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            欢迎，{info.user.nickName || info.user.username}
          </Typography.Title>
          <Button icon={<LogoutOutlined />} onClick={confirmLogout}>
            退出登录
          </Button>
        </Flex>
        <Descriptions column={1} bordered size="middle" style={{ marginTop: 24 }} styles={{ label: { width: 120, whiteSpace: 'nowrap' } }}>
          <Descriptions.Item label="用户名">{info.user.username}</Descriptions.Item>
          <Descriptions.Item label="部门">{info.user.dept?.name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="所属企业">{info.company?.name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="角色权限">
            <Space size={[4, 8]} wrap>
              {info.roles.map((role) => (
                <Tag color="blue" key={role}>
                  {role}
                </Tag>
              ))}
            </Space>
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </Flex>
  );
}
