import { PendingPage } from '../../pending-page';

export function DictAdminPage() {
  return <PendingPage title="字典管理" />;
}
