import { PendingPage } from '../../pending-page';

export function UserAdminPage() {
  return <PendingPage title="用户管理" />;
}
