import { PendingPage } from '../../pending-page';

export function ScreenAdminPage() {
  return <PendingPage title="大屏管理" />;
}
