import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { RouterProvider } from 'react-router-dom';
import { ErrorBoundary } from './error-panel';
import { router } from './router';

dayjs.locale('zh-cn');

const theme = { token: { colorPrimary: '#2F6EFF' } };

export function AppRoot() {
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <AntApp>
        <ErrorBoundary>
          <RouterProvider router={router} />
        </ErrorBoundary>
      </AntApp>
    </ConfigProvider>
  );
}
