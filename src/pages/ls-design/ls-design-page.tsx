import { Result } from 'antd';
import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { ScreenDataProvider, screenDataOf } from '../../engine/screen/data-source';
import { ScreenDesigner } from '../../engine/screen/designer/screen-designer';
import { useEngineServices } from '../../engine/services';

/** `/lsDesign?lsId=`: the big-screen designer (大屏设计) for one screen; its charts read data views with the session. */
export function LsDesignPage() {
  const { search } = useLocation();
  const { data } = useEngineServices();
  const source = useMemo(() => screenDataOf(data), [data]);
  const text = new URLSearchParams(search).get('lsId') ?? '';
  const id = Number(text);
  if (!/^\d+$/.test(text) || id < 1)
    return <Result status="warning" title="请指定大屏编号（lsId）" subTitle="从大屏管理中点击“设计”打开" />;
  return (
    <ScreenDataProvider source={source}>
      <ScreenDesigner key={id} lsId={id} />
    </ScreenDataProvider>
  );
}
