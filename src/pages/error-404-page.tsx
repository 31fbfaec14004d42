import { Result } from 'antd';
import { APP_PATHS } from '../shared/app-paths';
import { RouteButton } from './route-button';

/** /404: the page does not exist (or is not one of the user's). */
export function Error404Page() {
  return (
    <Result
      status="404"
      title="抱歉，该页面不存在或暂不开放访问"
      subTitle="请检查网址是否正确；如需访问，请联系系统管理员。"
      extra={
        <RouteButton type="primary" to={APP_PATHS.home}>
          返回首页
        </RouteButton>
      }
    />
  );
}
