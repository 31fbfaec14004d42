import { PendingPage } from '../../pending-page';

export function RoleAdminPage() {
  return <PendingPage title="角色管理" />;
}
