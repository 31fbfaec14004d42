import { constants } from 'node:os';

/**
 * SIGINT (Ctrl-C) and SIGTERM while a command has work under way that must not be left half done:
 * the first one runs the command's clean-up, then the process ends by the same signal, as it would
 * have without the handler (a shell sees 130 or 143, and a script running it stops). A second signal
 * ends it at once. Node runs a signal's handler only between tasks, so a long synchronous step
 * delays the clean-up until it ends: generate's compile therefore lets the event loop turn every
 * few milliseconds (runInterruptibly) and stops there once a signal was received.
 */

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type Stoppable = (typeof SIGNALS)[number];

export interface SignalGuard {
  /** The signal received, if any. */
  readonly received: Stoppable | undefined;
  /**
   * Lets a signal that arrived during a synchronous step be handled: resolves after the event loop
   * has polled once, then answers whether a signal was received (its clean-up is then under way).
   */
  settle(): Promise<boolean>;
  /** Never resolves: what the command awaits once a signal was received, while the clean-up ends the process. */
  readonly stopping: Promise<never>;
  /** Removes the handlers: signals do what they did before. */
  release(): void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Ends the process by `signal` (its default action, the handlers removed), or with 128 + its number. */
function endBy(signal: Stoppable, handler: (signal: Stoppable) => void): never {
  for (const s of SIGNALS) process.removeListener(s, handler);
  process.kill(process.pid, signal);
  process.exit(128 + constants.signals[signal]);
}

export function guardSignals(cleanUp: (signal: Stoppable) => Promise<void>): SignalGuard {
  let received: Stoppable | undefined;
  const handler = (signal: Stoppable) => {
    if (received) endBy(signal, handler);
    received = signal;
    cleanUp(signal)
      .catch(() => {})
      .finally(() => endBy(signal, handler));
  };
  for (const s of SIGNALS) process.on(s, handler);
  return {
    get received() {
      return received;
    },
    async settle() {
      // Callbacks queued with setImmediate while the loop is in its poll phase run before it polls
      // again; a second turn is after a poll, where a pending signal's handler runs.
      await nextTurn();
      await nextTurn();
      return received !== undefined;
    },
    stopping: new Promise<never>(() => {}),
    release() {
      for (const s of SIGNALS) process.removeListener(s, handler);
    },
  };
}
