import { App } from 'antd';
import { useEffect } from 'react';
import { NOTICE_SECONDS, setNotifier } from './notifier';

/** Installs antd's message and modal (from the nearest <App>) as the app's notifier. */
export function NotifierBridge() {
  const { message, modal } = App.useApp();
  useEffect(() => {
    setNotifier({
      success: (t, s) => void message.success(t, s ?? NOTICE_SECONDS),
      error: (t, s) => void message.error(t, s ?? NOTICE_SECONDS),
      warning: (t, s) => void message.warning(t, s ?? NOTICE_SECONDS),
      info: (t, s) => void message.info(t, s ?? NOTICE_SECONDS),
      confirm: (o) =>
        new Promise<boolean>((resolve) => {
          modal.confirm({
            title: o.title,
            content: o.content,
            okText: o.okText ?? '确定',
            cancelText: o.cancelText ?? '取消',
            onOk: () => resolve(true),
            onCancel: () => resolve(false),
          });
        }),
    });
    return () => setNotifier(null);
  }, [message, modal]);
  return null;
}
