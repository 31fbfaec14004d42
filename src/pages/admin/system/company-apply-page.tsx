import { PendingPage } from '../../pending-page';

export function CompanyApplyPage() {
  return <PendingPage title="企业入驻审核" />;
}
