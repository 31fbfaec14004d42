import { PendingPage } from '../pending-page';

export function QrcodePrintPage() {
  return <PendingPage title="打印二维码" />;
}
