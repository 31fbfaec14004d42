import { useCallback, useState } from 'react';
import { notify } from '../notify/notifier';

/** What a reported call does after it answered or failed. */
export interface ReportOptions<T> {
  /** The success toast when the answer has no message of its own. */
  done: string;
  /** The failure's text when the error has no message. */
  failed?: string;
  answered?: (answer: T) => void;
  /** Marks the field the failure names, say. */
  refused?: (text: string) => void;
}

/**
 * A call of a form that answers with a message: while it runs `busy` is true; its answer's message (or
 * `done`) shows as a success toast, a failure's message as an error toast, then `answered` or `refused` runs.
 */
export function useReportedCall(): [
  busy: boolean,
  run: <T extends { message?: string }>(call: () => Promise<T>, o: ReportOptions<T>) => Promise<void>,
] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async <T extends { message?: string }>(call: () => Promise<T>, o: ReportOptions<T>) => {
    setBusy(true);
    try {
      const answer = await call();
      notify.success(answer.message || o.done);
      o.answered?.(answer);
    } catch (e) {
      const text = e instanceof Error && e.message ? e.message : (o.failed ?? '操作失败');
      notify.error(text);
      o.refused?.(text);
    } finally {
      setBusy(false);
    }
  }, []);
  return [busy, run];
}
