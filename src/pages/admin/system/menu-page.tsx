import { PendingPage } from '../../pending-page';

export function MenuAdminPage() {
  return <PendingPage title="菜单管理" />;
}
