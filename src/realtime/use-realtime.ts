/**
 * The realtime channel for the signed-in user: the shell's layout calls this
 * once; it opens /websocket/{username}, and closes it when the layout unmounts (logout) or the user
 * changes. Each notice shows as a success toast, bumps the unread badge at once and then refreshes
 * the count from the server; the count sent on connect sets the badge.
 */
import { useEffect } from 'react';
import { unreadStore } from '../messages/unread-store';
import { type Notifier, notify } from '../notify/notifier';
import { getToken } from '../session/token';
import { RealtimeClient, type RealtimeHandlers, realtimeUrl } from './realtime-client';

type UnreadTarget = Pick<typeof unreadStore, 'setTotal' | 'increment' | 'refresh'>;

/** What the channel does with its messages, wired to the app's notifier and unread store by default. */
export function realtimeHandlers(
  notifier: Pick<Notifier, 'success' | 'error'> = notify,
  unread: UnreadTarget = unreadStore,
): RealtimeHandlers {
  return {
    notice: (text) => {
      notifier.success(text);
      unread.increment();
      void unread.refresh();
    },
    unread: (count) => unread.setTotal(count),
    error: (text) => notifier.error(text),
  };
}

export function useRealtime(username: string | undefined): void {
  useEffect(() => {
    if (!username) return;
    const client = new RealtimeClient({
      // Read at every (re)connect: after a logout there is no token and the channel stops.
      url: () => {
        const token = getToken();
        return token ? realtimeUrl(window.location, username, token) : null;
      },
      handlers: realtimeHandlers(),
    });
    // Started a tick later, so StrictMode's mount-unmount-mount does not open and drop a socket.
    const timer = setTimeout(() => client.start(), 0);
    return () => {
      clearTimeout(timer);
      client.close();
    };
  }, [username]);
}
