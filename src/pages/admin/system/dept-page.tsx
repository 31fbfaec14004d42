import { PendingPage } from '../../pending-page';

export function DeptAdminPage() {
  return <PendingPage title="部门管理" />;
}
