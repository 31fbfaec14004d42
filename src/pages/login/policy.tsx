/**
 * Agreements and policies from GET /api/privacyPolicy/preview (types: 1 service agreement,
 * 2 join agreement, 3 privacy policy, 4 authorization agreement), rendered from their HTML.
 *
 * The HTML is an administrator's text, so it is treated as untrusted and sanitised (the engine's
 * safeHtml) before it is rendered: no script, event handler, javascript: URL, frame or inline style
 * reaches the page.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Skeleton } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { privacyPolicy } from '../../contract/privacy-policy';
import { SAFE_HTML_CLASS, safeHtml } from '../../engine/safe-html';
import { api, useLookup } from '../../request';

export const POLICY_TYPE = { service: 1, join: 2, privacy: 3, authorization: 4 } as const;

export interface Policy {
  type: number;
  title: string;
  content: string;
}

/** One policy's text; a policy without text fails with 协议内容为空. */
async function loadPolicy(type: number, signal: AbortSignal): Promise<Policy> {
  // The pages show their own failure state (or built-in text), so no error toast.
  const res = await api(privacyPolicy.calls.preview, { query: { type: String(type) } }, { silent: true, signal });
  if (typeof res?.data?.content !== 'string') throw new Error('协议内容为空');
  return res.data;
}

/**
 * Untrusted policy HTML made safe to render (the engine's safeHtml: no script, handler, frame, form,
 * unsafe URL, style or class, so the text cannot restyle or cover the page). `dropHeading` removes a
 * leading h1/h2 whose text equals the page's own title, so the title is not shown twice.
 */
export function sanitizePolicyHtml(html: string, dropHeading?: string): string {
  const clean = safeHtml(html);
  if (!dropHeading) return clean;
  const body = new DOMParser().parseFromString(clean, 'text/html').body;
  const first = body.firstElementChild;
  if (!first || !/^H[12]$/.test(first.tagName) || first.textContent?.trim() !== dropHeading) return clean;
  first.remove();
  return body.innerHTML;
}

/** Typography for agreement text (the markup is plain h2/h3/p). */
export const policyStyle: React.CSSProperties = { lineHeight: 1.9, fontSize: 14, color: 'rgba(0,0,0,.85)', wordBreak: 'break-word' };

export interface PolicyViewProps {
  type: number;
  /** Shown instead of an error when the server has no such text. */
  fallback?: ReactNode;
  /** The page's own title: a leading heading with the same text is left out. */
  dropHeading?: string;
}

/** One policy: a skeleton while loading, the text, or the failure with a retry (or the fallback). */
export function PolicyView({ type, fallback, dropHeading }: PolicyViewProps) {
  const policy = useLookup(`policy:${type}`, (signal) => loadPolicy(type, signal));
  if (policy.loading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!policy.data) {
    if (fallback) return <>{fallback}</>;
    return (
      <Result
        status="warning"
        title="协议加载失败"
        subTitle={policy.error}
        extra={
          <Button icon={<ReloadOutlined />} onClick={policy.reload}>
            重新加载
          </Button>
        }
      />
    );
  }
  return <PolicyHtml policy={policy.data} dropHeading={dropHeading} />;
}

function PolicyHtml({ policy, dropHeading }: { policy: Policy; dropHeading: string | undefined }) {
  const html = useMemo(() => sanitizePolicyHtml(policy.content, dropHeading), [policy.content, dropHeading]);
  return (
    <article
      className={`policy-content ${SAFE_HTML_CLASS}`}
      data-policy-type={policy.type}
      style={policyStyle}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by safeHtml (sanitizePolicyHtml)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
