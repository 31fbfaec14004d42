/**
 * The unread counts behind the top bar's badge: system messages and leave messages, the badge showing
 * both together. The realtime channel increments it on each notice and asks for a refresh; pages that
 * read or delete messages refresh it too.
 */
import { useSyncExternalStore } from 'react';
import { messages } from '../contract/messages';
import { api } from '../request';
import { createListeners } from '../shared/listeners';

export interface UnreadCounts {
  sys: number;
  leave: number;
  total: number;
}

export type UnreadKind = 'sys' | 'leave';

const whole = (n: unknown) => Math.max(0, Math.floor(Number(n)) || 0);
const counts = (sys: number, leave: number): UnreadCounts => ({ sys: whole(sys), leave: whole(leave), total: whole(sys) + whole(leave) });

let current = counts(0, 0);
const { subscribe, emit } = createListeners();

function put(next: UnreadCounts): void {
  if (next.sys === current.sys && next.leave === current.leave) return;
  current = next;
  emit();
}

export const unreadStore = {
  get: (): number => current.total,
  counts: (): UnreadCounts => current,
  subscribe,
  /** Both counts as the server tells them. */
  setCounts(sys: number, leave: number): void {
    put(counts(sys, leave));
  },
  /** One kind moves to `n` (a read, a delete); the other stays. */
  set(n: number, kind: UnreadKind = 'sys'): void {
    put(kind === 'sys' ? counts(n, current.leave) : counts(current.sys, n));
  },
  /** The sum only (the realtime channel's count): shown at once, split as the server then tells. */
  setTotal(n: number): void {
    const leave = Math.min(current.leave, whole(n));
    put(counts(whole(n) - leave, leave));
    void unreadStore.refresh();
  },
  /** A notice arrived: shown at once as a system message until the server's counts come. */
  increment(): void {
    put(counts(current.sys + 1, current.leave));
  },
  /** GET /api/sysMessage/getUnreadNum; failures keep the current counts. */
  async refresh(): Promise<void> {
    try {
      const r = await api(messages.calls.unreadNum);
      const d = r?.data;
      if (typeof d?.sysNum === 'number' && typeof d.leaveNum === 'number') unreadStore.setCounts(d.sysNum, d.leaveNum);
    } catch {
      // The badge keeps its last value; the request layer already told the user.
    }
  },
};

/** Unread system and leave messages together (the badge). */
export function useUnreadCount(): number {
  return useSyncExternalStore(unreadStore.subscribe, unreadStore.get, unreadStore.get);
}

/** Each kind apart, and their sum. */
export function useUnreadCounts(): UnreadCounts {
  return useSyncExternalStore(unreadStore.subscribe, unreadStore.counts, unreadStore.counts);
}
