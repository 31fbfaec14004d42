/**
 * What the app's notices offer, the same for the engine's services and the platform's notifier:
 * toasts of each kind for a number of seconds, and a confirmation that resolves true on OK.
 */
export interface ConfirmOptions {
  title: string;
  content: string;
  okText?: string;
  cancelText?: string;
}

export interface Notifier {
  success(text: string, seconds?: number): void;
  error(text: string, seconds?: number): void;
  warning(text: string, seconds?: number): void;
  info(text: string, seconds?: number): void;
  /** Resolves true on OK, false on cancel or close. */
  confirm(options: ConfirmOptions): Promise<boolean>;
}
