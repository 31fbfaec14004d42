/** Message pushed over /websocket/{username} (core-platform.md §3). */
export interface RealtimeMessage {
  sender: string;
  reception: string;
  body: unknown;
  flag: string;
}

export interface RealtimeSocket {
  send(data: string): void;
}

/** Registry of open websockets by username; routes push notices through it. */
export class Realtime {
  readonly #sockets = new Map<string, Set<RealtimeSocket>>();

  add(username: string, socket: RealtimeSocket): () => void {
    let set = this.#sockets.get(username);
    if (!set) {
      set = new Set();
      this.#sockets.set(username, set);
    }
    set.add(socket);
    return () => {
      set.delete(socket);
      if (!set.size) this.#sockets.delete(username);
    };
  }

  /** Returns how many sockets received the message. */
  push(username: string, message: RealtimeMessage): number {
    const set = this.#sockets.get(username);
    if (!set) return 0;
    const text = JSON.stringify(message);
    for (const s of set) s.send(text);
    return set.size;
  }

  connected(username: string): number {
    return this.#sockets.get(username)?.size ?? 0;
  }
}
