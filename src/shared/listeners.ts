/**
 * The subscribe/emit half of the app's small stores (session, settings, tags, unread count, the
 * options caches): `subscribe` fits React's useSyncExternalStore, `emit` tells every listener.
 */
export interface Listeners {
  subscribe(listener: () => void): () => void;
  emit(): void;
}

export function createListeners(): Listeners {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit() {
      for (const l of listeners) l();
    },
  };
}
