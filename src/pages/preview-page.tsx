import { Result } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { ResolvedView } from '../engine';

/** /dev-tools/preview?viewId=: 视图预览, always drawn by the runtime renderer (a preview shows the definition as saved, not the build). */
export function PreviewPage() {
  const [params] = useSearchParams();
  const viewId = Number(params.get('viewId'));
  if (!Number.isSafeInteger(viewId) || viewId <= 0)
    return <Result status="warning" title="缺少视图编号" subTitle="请从视图列表打开预览（viewId）。" />;
  return <ResolvedView key={viewId} viewId={viewId} runtimeOnly />;
}
