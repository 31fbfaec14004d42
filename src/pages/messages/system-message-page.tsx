import { PendingPage } from '../pending-page';

export function SystemMessagePage() {
  return <PendingPage title="系统消息" />;
}
