import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';

export function InitPage() {
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title="系统尚未初始化"
      subTitle="请由管理员完成系统初始化设置后再登录。"
      extra={<Button onClick={() => navigate('/login')}>返回登录</Button>}
    />
  );
}
