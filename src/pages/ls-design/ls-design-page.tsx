import { PendingPage } from '../pending-page';

export function LsDesignPage() {
  return <PendingPage title="大屏设计" />;
}
