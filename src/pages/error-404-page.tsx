import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';

/** /404: the page does not exist (or is not one of the user's). */
export function Error404Page() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="网管说这个页面你不能进……"
      subTitle="请检查您输入的网址是否正确，或点击下面的按钮返回首页。"
      extra={
        <Button
          type="primary"
          href="/abandonhome"
          onClick={(e) => {
            e.preventDefault();
            navigate('/abandonhome');
          }}
        >
          返回首页
        </Button>
      }
    />
  );
}
