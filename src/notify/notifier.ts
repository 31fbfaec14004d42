/**
 * How non-React code (the request layer, the realtime channel) tells the user something. The app
 * installs antd's message/modal/notification through <NotifierBridge/> (inside antd's <App>), so
 * toasts follow the live theme; until then, and in unit tests, messages go to the console.
 */
import type { ConfirmOptions, Notifier } from '../shared/notice';

export type { ConfirmOptions, Notifier };

/** Notifications last 2500 ms; server errors stay 5 s. */
export const NOTICE_SECONDS = 2.5;
export const ERROR_SECONDS = 5;

const consoleNotifier: Notifier = {
  success: (t) => console.info(t),
  error: (t) => console.error(t),
  warning: (t) => console.warn(t),
  info: (t) => console.info(t),
  confirm: async () => false,
};

let current: Notifier = consoleNotifier;
let installed: () => void = () => {};
const installedOnce = new Promise<void>((resolve) => {
  installed = resolve;
});

export function setNotifier(notifier: Notifier | null): void {
  current = notifier ?? consoleNotifier;
  if (notifier) installed();
}

/** Resolves once the app's notifier is installed: a question asked before that could not be shown. */
export function notifierInstalled(): Promise<void> {
  return installedOnce;
}

export const notify: Notifier = {
  success: (t, s) => current.success(t, s),
  error: (t, s) => current.error(t, s),
  warning: (t, s) => current.warning(t, s),
  info: (t, s) => current.info(t, s),
  confirm: (o) => current.confirm(o),
};
