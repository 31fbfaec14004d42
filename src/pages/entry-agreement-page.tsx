import { PendingPage } from './pending-page';

/** /entryAgreement (入驻协议). */
export function EntryAgreementPage() {
  return <PendingPage title="入驻协议" />;
}
