import { PendingPage } from './pending-page';

/** /serviceAgreement (服务协议) and /privacyPolicy (隐私政策). */
export function AgreementPage({ kind }: { kind: 'service' | 'privacy' }) {
  return <PendingPage title={kind === 'service' ? '服务协议' : '隐私政策'} />;
}
