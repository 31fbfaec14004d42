/**
 * Counts the visit behind the personal centre's weekly traffic: POST /api/visits once per browser
 * session (the tab's sessionStorage), whichever page the user opens first.
 */
import { visits } from '../contract/visits';
import { api } from '../request';

export const VISIT_KEY = 'wg-visit-recorded';

const postVisit = () => api(visits.calls.record, {}, { silent: true });

export function recordVisitOnce(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null = safeSessionStorage(),
  post: () => Promise<unknown> = postVisit,
): void {
  try {
    if (storage?.getItem(VISIT_KEY)) return;
    storage?.setItem(VISIT_KEY, '1');
  } catch {
    // Storage refused: the visit is still counted, perhaps again after a reload.
  }
  void post().catch(() => {
    // Not worth a message; the next session counts again.
  });
}

function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
