import { Button, Flex, Result, Typography } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { APP_PATHS, forbiddenReasonOf } from '../shared/app-paths';
import { ERROR_MESSAGES, isErrorCode } from '../shared/error-catalogue';
import { RouteButton } from './route-button';

/** A catalogue message that needs no parameters, by its code. */
const catalogueText = (code: string) => (isErrorCode(code) && !ERROR_MESSAGES[code].includes('{') ? ERROR_MESSAGES[code] : undefined);

/**
 * /401: the user may not open the page they asked for. Every refusal lands here with its reason in the
 * navigation's state: a 403 from the server (its message), and a page the user's menus do not lead to;
 * a page outside the app (the big-screen viewer) sends the refusal's code in the query instead.
 */
export function Error401Page() {
  const navigate = useNavigate();
  const { state, search } = useLocation();
  const refused = forbiddenReasonOf(state, search, catalogueText);
  const back = () => {
    // Opened directly there is nothing to go back to: go home instead.
    if (window.history.length > 1) navigate(-1);
    else navigate(APP_PATHS.home, { replace: true });
  };
  return (
    <Result
      status="403"
      title="你没有权限去该页面"
      subTitle={
        <>
          {refused && (
            <Typography.Paragraph className="wg-forbidden-reason" data-testid="forbidden-reason" style={{ marginBottom: 4 }}>
              原因：{refused.reason}
              {refused.from ? `（${refused.from}）` : ''}
            </Typography.Paragraph>
          )}
          如需访问该页面，请联系您的上级或系统管理员开通相应权限。
        </>
      }
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
