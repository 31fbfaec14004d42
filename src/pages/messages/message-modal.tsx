import { Modal, Typography } from 'antd';
import { useMemo } from 'react';
import { SAFE_HTML_CLASS } from '../../engine/safe-html';
import { sanitizeHtml } from './messages-api';

/** One message, 850 px wide, its HTML sanitised. */
export function MessageModal({
  title,
  heading,
  meta,
  html,
  text,
  onClose,
}: {
  title: string;
  heading?: string;
  meta?: string;
  html?: string;
  text?: string;
  onClose: () => void;
}) {
  const safeHeading = useMemo(() => (heading ? sanitizeHtml(heading) : ''), [heading]);
  const safeHtml = useMemo(() => (html ? sanitizeHtml(html) : ''), [html]);
  return (
    <Modal open title={title} width={850} footer={null} onCancel={onClose} className="wg-message-modal">
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with safeHtml above */}
      {safeHeading && <h3 style={{ textAlign: 'center', marginTop: 8 }} dangerouslySetInnerHTML={{ __html: safeHeading }} />}
      {meta && (
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          {meta}
        </Typography.Paragraph>
      )}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with safeHtml above */}
      {html !== undefined && <div className={`wg-message-body ${SAFE_HTML_CLASS}`} dangerouslySetInnerHTML={{ __html: safeHtml }} />}
      {text !== undefined && (
        <div className="wg-message-body" style={{ whiteSpace: 'pre-wrap' }}>
          {text}
        </div>
      )}
    </Modal>
  );
}
