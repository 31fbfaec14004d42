import { Result } from 'antd';
import { useCallback, useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import type { CloseGuard } from '../../designer/document';
import { ScreenDesigner } from '../../designer/screen/screen-designer';
import { ScreenDataProvider, screenDataOf, useEngineServices } from '../../engine/index';
import { DIGITS_TEXT } from '../../model';
import { setCloseGuard } from '../../navigation/close-guards';

/**
 * `/lsDesign?lsId=`: the big-screen designer (大屏设计) for one screen; its charts read data views with
 * the session. Closing its tab with unsaved changes asks first (the browser's own prompt covers
 * leaving the app; moving to another tab keeps the page, and its work, alive).
 */
export function LsDesignPage() {
  const { pathname, search } = useLocation();
  const { data } = useEngineServices();
  const source = useMemo(() => screenDataOf(data), [data]);
  const closeGuard = useCallback<CloseGuard>((ask) => setCloseGuard(pathname, ask), [pathname]);

  const text = new URLSearchParams(search).get('lsId') ?? '';
  const id = Number(text);
  if (!DIGITS_TEXT.test(text) || id < 1)
    return <Result status="warning" title="请指定大屏编号（lsId）" subTitle="从大屏管理中点击“设计”打开" />;
  return (
    <ScreenDataProvider source={source}>
      <ScreenDesigner key={id} lsId={id} closeGuard={closeGuard} />
    </ScreenDataProvider>
  );
}
