/**
 * The unread system-message count behind the top bar's badge. The realtime channel increments it
 * on each notice and asks for a refresh; pages that read or delete messages refresh it too.
 */
import { useSyncExternalStore } from 'react';
import { http } from '../request';
import { createListeners } from '../shared/listeners';

let count = 0;
const { subscribe, emit } = createListeners();

export const unreadStore = {
  get: (): number => count,
  subscribe,
  set(n: number): void {
    count = Math.max(0, Math.floor(n) || 0);
    emit();
  },
  increment(): void {
    unreadStore.set(count + 1);
  },
  /** GET /api/sysMessage/getUnreadNum; failures keep the current count. */
  async refresh(): Promise<void> {
    try {
      const r = await http.get<{ data?: { total?: number } }>('/api/sysMessage/getUnreadNum');
      if (typeof r?.data?.total === 'number') unreadStore.set(r.data.total);
    } catch {
      // The badge keeps its last value; the request layer already told the user.
    }
  },
};

export function useUnreadCount(): number {
  return useSyncExternalStore(unreadStore.subscribe, unreadStore.get, unreadStore.get);
}
