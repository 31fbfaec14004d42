import { Button, Modal, Tabs } from 'antd';
import { POLICY_TYPE, PolicyView } from './policy';

export type TermsTab = 'join' | 'authorization';

export interface TermsDialogProps {
  open: boolean;
  onClose: () => void;
  /** Which tab shows first. */
  initialTab?: TermsTab;
}

/** The terms dialog, two tabs: join agreement (type 2) and authorization agreement (type 4). */
export function TermsDialog({ open, onClose, initialTab = 'join' }: TermsDialogProps) {
  return (
    <Modal
      title="平台协议"
      open={open}
      onCancel={onClose}
      width={860}
      centered
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          我知道了
        </Button>
      }
    >
      <Tabs
        defaultActiveKey={initialTab}
        items={[
          { key: 'join', label: '入驻协议', children: <TermsPane type={POLICY_TYPE.join} /> },
          { key: 'authorization', label: '授权协议', children: <TermsPane type={POLICY_TYPE.authorization} /> },
        ]}
      />
    </Modal>
  );
}

function TermsPane({ type }: { type: number }) {
  return (
    <div style={{ maxHeight: '60vh', overflowY: 'auto', paddingRight: 8 }}>
      <PolicyView type={type} />
    </div>
  );
}
