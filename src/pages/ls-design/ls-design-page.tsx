import { Result } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { ScreenDesigner } from '../../designer/index';
import { ScreenDataProvider, screenDataOf, useEngineServices } from '../../engine/index';
import { setCloseGuard } from '../../shell/close-guards';

/**
 * `/lsDesign?lsId=`: the big-screen designer (大屏设计) for one screen; its charts read data views with
 * the session. Closing its tab with unsaved changes asks first (the browser's own prompt covers
 * leaving the app; moving to another tab keeps the page, and its work, alive).
 */
export function LsDesignPage() {
  const { pathname, search } = useLocation();
  const { data, notify } = useEngineServices();
  const source = useMemo(() => screenDataOf(data), [data]);
  const [dirty, setDirty] = useState(false);
  const onDirtyChange = useCallback((d: boolean) => setDirty(d), []);

  useEffect(() => {
    if (!dirty) return;
    return setCloseGuard(pathname, () =>
      notify.confirm({
        title: '大屏设计尚未保存',
        content: '关闭后未保存的修改将丢失（浏览器中保留草稿，下次打开可恢复）。确定关闭吗？',
        okText: '关闭',
        cancelText: '取消',
      }),
    );
  }, [dirty, pathname, notify]);

  const text = new URLSearchParams(search).get('lsId') ?? '';
  const id = Number(text);
  if (!/^\d+$/.test(text) || id < 1)
    return <Result status="warning" title="请指定大屏编号（lsId）" subTitle="从大屏管理中点击“设计”打开" />;
  return (
    <ScreenDataProvider source={source}>
      <ScreenDesigner key={id} lsId={id} onDirtyChange={onDirtyChange} />
    </ScreenDataProvider>
  );
}
