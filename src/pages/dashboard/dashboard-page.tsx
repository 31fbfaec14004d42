import { PendingPage } from '../pending-page';

export function DashboardPage() {
  return <PendingPage title="首页" />;
}
