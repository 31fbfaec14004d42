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
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { privacyPolicy } from '../../contract/privacy-policy';
import { api } from '../../request';

export const POLICY_TYPE = { service: 1, join: 2, privacy: 3, authorization: 4 } as const;

export interface Policy {
  type: number;
  title: string;
  content: string;
}

export function fetchPolicy(type: number, signal?: AbortSignal): Promise<{ status: number; data: Policy }> {
  // The pages show their own failure state (or built-in text), so no error toast.
  return api(privacyPolicy.calls.preview, { query: { type: String(type) } }, { silent: true, signal });
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

export type PolicyState = { status: 'loading' } | { status: 'ready'; policy: Policy } | { status: 'failed'; message: string };

/** Loads one policy type; `retry` loads it again. */
export function usePolicy(type: number): { state: PolicyState; retry: () => void } {
  const [state, setState] = useState<PolicyState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    // `attempt` is read so that a retry re-runs the effect.
    void attempt;
    fetchPolicy(type, controller.signal)
      .then((res) => {
        if (controller.signal.aborted) return;
        if (res?.data && typeof res.data.content === 'string') setState({ status: 'ready', policy: res.data });
        else setState({ status: 'failed', message: '协议内容为空' });
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'failed', message: e instanceof Error && e.message ? e.message : '协议加载失败' });
      });
    return () => controller.abort();
  }, [type, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}

export interface PolicyViewProps {
  type: number;
  /** Shown instead of an error when the server has no such text. */
  fallback?: ReactNode;
  /** The page's own title: a leading heading with the same text is left out. */
  dropHeading?: string;
}

/** One policy: a skeleton while loading, the text, or the failure with a retry (or the fallback). */
export function PolicyView({ type, fallback, dropHeading }: PolicyViewProps) {
  const { state, retry } = usePolicy(type);
  if (state.status === 'loading') return <Skeleton active paragraph={{ rows: 8 }} />;
  if (state.status === 'failed') {
    if (fallback) return <>{fallback}</>;
    return (
      <Result
        status="warning"
        title="协议加载失败"
        subTitle={state.message}
        extra={
          <Button icon={<ReloadOutlined />} onClick={retry}>
            重新加载
          </Button>
        }
      />
    );
  }
  return <PolicyHtml policy={state.policy} dropHeading={dropHeading} />;
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
