import { Button, Flex, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { APP_PATHS } from '../shared/app-paths';
import { RouteButton } from './route-button';

/** /401: the user may not open the page they asked for (a 403 from the server lands here). */
export function Error401Page() {
  const navigate = useNavigate();
  const back = () => {
    // Opened directly there is nothing to go back to: go home instead.
    if (window.history.length > 1) navigate(-1);
    else navigate(APP_PATHS.home, { replace: true });
  };
  return (
    <Result
      status="403"
      title="你没有权限去该页面"
      subTitle="如需访问该页面，请联系您的上级或系统管理员开通相应权限。"
      extra={
        <Flex gap={12} justify="center" wrap>
          <Button onClick={back}>返回</Button>
          <RouteButton type="primary" to={APP_PATHS.dashboard}>
            前往看板
          </RouteButton>
        </Flex>
      }
    />
  );
}
