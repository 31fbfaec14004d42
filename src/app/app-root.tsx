import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { RouterProvider } from 'react-router-dom';
import { NotifierBridge } from '../notify/notifier-bridge';
import { antdSize, useSettings } from '../settings/settings-store';
import { installAuthHandlers } from './auth-handlers';
import { ErrorBoundary } from './error-panel';
import { router } from './router';

dayjs.locale('zh-cn');
installAuthHandlers(router);

/** antd with zh_CN, the theme colour and component size from the settings (applied live). */
export function AppRoot() {
  const settings = useSettings();
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: settings.theme } }} componentSize={antdSize(settings.size)}>
      <AntApp>
        <NotifierBridge />
        <ErrorBoundary>
          <RouterProvider router={router} />
        </ErrorBoundary>
      </AntApp>
    </ConfigProvider>
  );
}
