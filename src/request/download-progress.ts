import type { DownloadProgress } from './download';

/** The download under way, for the progress dialog: a tiny store React reads with useSyncExternalStore. */

let current: DownloadProgress | null = null;
const listeners = new Set<() => void>();

export const downloadProgress = {
  get: (): DownloadProgress | null => current,
  set(next: DownloadProgress | null): void {
    current = next;
    for (const l of listeners) l();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
