/**
 * Agreements and policies from GET /api/privacyPolicy/preview (types: 1 service agreement,
 * 2 join agreement, 3 privacy policy, 4 authorization agreement), rendered from their HTML.
 *
 * The HTML is an administrator's text, so it is treated as untrusted and sanitised with DOMPurify
 * before it is rendered: no script, event handler, javascript: URL, frame or inline style reaches
 * the page.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Skeleton } from 'antd';
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { type ReactNode, useMemo } from 'react';
import { privacyPolicy } from '../../contract/privacy-policy';
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

let purifier: DOMPurify | null = null;

/** A DOMPurify instance of its own, so its link hook does not reach other users of the library. */
function policyPurifier(): DOMPurify {
  if (purifier) return purifier;
  purifier = createDOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return purifier;
}

/**
 * Untrusted policy HTML made safe to render: DOMPurify removes scripts, event handlers, frames,
 * forms and unsafe URLs; inline styles and classes go too, so the text cannot restyle or cover
 * the page. `dropHeading` removes a leading h1/h2 whose text equals the page's own title, so the
 * title is not shown twice.
 */
export function sanitizePolicyHtml(html: string, dropHeading?: string): string {
  const clean = policyPurifier().sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'select', 'textarea', 'dialog'],
    FORBID_ATTR: ['style', 'class'],
  });
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
      className="policy-content"
      data-policy-type={policy.type}
      style={policyStyle}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify (sanitizePolicyHtml)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
