import { Result } from 'antd';

/** A page of the route table whose content belongs to a later part of the product. */
export function PendingPage({ title }: { title: string }) {
  return <Result status="info" title={title} subTitle="该页面正在建设中，敬请期待。" />;
}
