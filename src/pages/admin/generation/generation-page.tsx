import { PendingPage } from '../../pending-page';

export function GenerationPage() {
  return <PendingPage title="视图管理" />;
}
