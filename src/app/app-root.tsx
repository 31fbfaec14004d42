import { ConfigProvider } from 'antd';
import useToken from 'antd/es/theme/useToken';
import zhCN from 'antd/locale/zh_CN';
import { lazy, type ReactNode, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { RouterProvider } from 'react-router-dom';
import { NotifierBridge } from '../notify/notifier-bridge';
import { downloadProgress } from '../request';
import { MODAL_CONFIG, SELECT_CONFIG } from '../settings/component-config';
import { antdSize, sizeTokens, useSettings } from '../settings/settings-store';
import { installAuthHandlers } from './auth-handlers';
import { ErrorBoundary } from './error-panel';
import { router } from './router';

installAuthHandlers(router);

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const reducedMotion = (): boolean => typeof matchMedia === 'function' && matchMedia(REDUCED_MOTION).matches;
function onMotionPreference(change: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const query = matchMedia(REDUCED_MOTION);
  query.addEventListener('change', change);
  return () => query.removeEventListener('change', change);
}

const DownloadProgressDialog = lazy(() =>
  import('../notify/download-progress-dialog').then((m) => ({ default: m.DownloadProgressDialog })),
);
const downloading = (): boolean => downloadProgress.get() !== null;

/** The download dialog, whose code loads with the first download (the login route carries none of it). */
function DownloadProgress() {
  const active = useSyncExternalStore(downloadProgress.subscribe, downloading, () => false);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (active) setLoaded(true);
  }, [active]);
  if (!active && !loaded) return null;
  return (
    <Suspense fallback={null}>
      <DownloadProgressDialog />
    </Suspense>
  );
}

/** The theme's text colour, size, line height and font for everything under it. */
function TextBase({ children }: { children: ReactNode }) {
  const [, token] = useToken();
  return (
    <div
      className="wg-app"
      style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}
    >
      {children}
    </div>
  );
}

/**
 * antd with zh_CN, the theme colour and component size from the settings (applied live). A user who
 * asks the system for less motion gets dialogs, menus and popups that open and close without animation.
 */
export function AppRoot() {
  const settings = useSettings();
  const still = useSyncExternalStore(onMotionPreference, reducedMotion, () => false);
  return (
    <ConfigProvider
      locale={zhCN}
      theme={{ token: { colorPrimary: settings.theme, motion: !still, ...sizeTokens(settings.size) } }}
      componentSize={antdSize(settings.size)}
      {...SELECT_CONFIG}
      {...MODAL_CONFIG}
    >
      <TextBase>
        <NotifierBridge />
        <DownloadProgress />
        <ErrorBoundary>
          <RouterProvider router={router} />
        </ErrorBoundary>
      </TextBase>
    </ConfigProvider>
  );
}
