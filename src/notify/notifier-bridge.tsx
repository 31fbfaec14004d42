import useMessage from 'antd/es/message/useMessage';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { ConfirmOptions } from '../shared/notice';
import { NOTICE_SECONDS, setNotifier } from './notifier';

/** A question waiting for its dialog, and how its answer is given back. */
export interface PendingConfirm {
  id: number;
  options: ConfirmOptions;
  answer: (ok: boolean) => void;
}

// The dialog's code (antd's Modal) loads with the first question: the login route carries none of it.
const ConfirmHost = lazy(() => import('./confirm-host').then((m) => ({ default: m.ConfirmHost })));

let nextId = 1;

/**
 * Installs antd's message (themed by the nearest ConfigProvider) and a confirm dialog as the app's
 * notifier, and holds the toasts' and dialogs' place in the tree.
 */
export function NotifierBridge() {
  const [message, messageHolder] = useMessage();
  const [pending, setPending] = useState<PendingConfirm[]>([]);
  // Once loaded, the dialog host stays, so a closing dialog finishes its way out.
  const [asked, setAsked] = useState(false);
  const settle = useCallback((id: number) => setPending((all) => all.filter((p) => p.id !== id)), []);
  useEffect(() => {
    setNotifier({
      success: (t, s) => void message.success(t, s ?? NOTICE_SECONDS),
      error: (t, s) => void message.error(t, s ?? NOTICE_SECONDS),
      warning: (t, s) => void message.warning(t, s ?? NOTICE_SECONDS),
      info: (t, s) => void message.info(t, s ?? NOTICE_SECONDS),
      confirm: (options) =>
        new Promise<boolean>((answer) => {
          const id = nextId++;
          setPending((all) => [...all, { id, options, answer }]);
          setAsked(true);
        }),
    });
    return () => setNotifier(null);
  }, [message]);
  return (
    <>
      {messageHolder}
      {asked && (
        <Suspense fallback={null}>
          <ConfirmHost pending={pending} settle={settle} />
        </Suspense>
      )}
    </>
  );
}
