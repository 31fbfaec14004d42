import { PendingPage } from '../../pending-page';

export function DataViewPage() {
  return <PendingPage title="数据视图" />;
}
