import type { Output } from './errors.js';

/**
 * Progress of a long step (pull's requests, generate's pages). On a terminal, `output.progress`
 * exists and redraws one line on stderr: the label, a bar and the counts. Elsewhere (a pipe, CI,
 * --json, --quiet) nothing is drawn while working; the command prints its one summary line at the end.
 */
export interface Progress {
  /** `done` of `total` finished; the line is cleared when all are. */
  update(done: number, total: number): void;
  /** Clears the line. */
  end(): void;
}

const BAR = 24;
const EVERY_MS = 40;

export function bar(label: string, done: number, total: number): string {
  const filled = total > 0 ? Math.round((done / total) * BAR) : BAR;
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${done}/${total}`;
}

const silent: Progress = { update() {}, end() {} };

export function startProgress(output: Output, label: string, enabled = true): Progress {
  const draw = output.progress;
  if (!enabled || !draw) return silent;
  let last = 0;
  let shown = false;
  return {
    update(done, total) {
      const now = performance.now();
      if (done < total && now - last < EVERY_MS) return;
      last = now;
      if (done >= total) {
        if (shown) draw('');
        shown = false;
        return;
      }
      shown = true;
      draw(bar(label, done, total));
    },
    end() {
      if (shown) draw('');
    },
  };
}
