import { ReloadOutlined } from '@ant-design/icons';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type Captcha, fetchCaptcha } from '../../session/session-api';

export interface CaptchaState {
  captcha: Captcha | null;
  loading: boolean;
  failed: boolean;
  /** Fetches a new image; an answer that arrives after a newer request is dropped. */
  refresh: () => Promise<void>;
}

/** A captcha from GET /api/auth/code, loaded on mount unless `loadOnMount` is false. */
export function useCaptcha(loadOnMount = true): CaptchaState {
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const latest = useRef(0);

  const refresh = useCallback(async () => {
    const n = ++latest.current;
    setLoading(true);
    try {
      const next = await fetchCaptcha();
      if (n !== latest.current) return;
      setCaptcha(next);
      setFailed(false);
    } catch {
      // The request layer has told the user; the image offers a retry.
      if (n === latest.current) setFailed(true);
    } finally {
      if (n === latest.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (loadOnMount) void refresh();
    return () => {
      // Drop answers that arrive after unmount.
      latest.current++;
    };
  }, [refresh, loadOnMount]);

  return { captcha, loading, failed, refresh };
}

/** The captcha image as a button: a click (or Enter/Space) loads a new one. */
export function CaptchaImage({ state, height = 40 }: { state: CaptchaState; height?: number }) {
  const { captcha, loading, failed, refresh } = state;
  return (
    <button
      type="button"
      title="看不清？点击刷新"
      aria-label="刷新验证码"
      onClick={() => void refresh()}
      style={{
        flex: 'none',
        padding: 0,
        width: 113,
        height,
        border: '1px solid #d9d9d9',
        borderRadius: 6,
        background: '#fff',
        cursor: 'pointer',
        overflow: 'hidden',
        opacity: loading ? 0.6 : 1,
        transition: 'opacity .2s',
      }}
    >
      {captcha && !failed ? (
        <img src={captcha.img} alt="验证码" data-uuid={captcha.uuid} style={{ display: 'block', width: '100%', height: '100%' }} />
      ) : (
        <span style={{ fontSize: 12, color: failed ? '#ff4d4f' : '#999' }}>
          {failed ? (
            <>
              <ReloadOutlined /> 加载失败，重试
            </>
          ) : (
            '加载中…'
          )}
        </span>
      )}
    </button>
  );
}
