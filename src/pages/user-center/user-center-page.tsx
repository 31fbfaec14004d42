import { PendingPage } from '../pending-page';

export function UserCenterPage() {
  return <PendingPage title="个人中心" />;
}
