import type { Bus } from './bus.js';

/** Message pushed over /websocket/{username}. */
export interface RealtimeMessage {
  sender: string;
  reception: string;
  body: unknown;
  flag: string;
}

export interface RealtimeSocket {
  send(data: string): void;
}

/**
 * Registry of this instance's open websockets by username; routes push notices through it, and the
 * bus carries each notice to the instances where the user's other sockets are.
 */
export class Realtime {
  readonly #sockets = new Map<string, Set<RealtimeSocket>>();

  constructor(private readonly bus?: Bus) {
    bus?.on((e) => {
      if (e.t === 'notice' && e.text) this.#send(e.username, e.text);
    });
  }

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

  /** Sends the message to the user's sockets on every instance; answers how many are on this one. */
  push(username: string, message: RealtimeMessage): number {
    const text = JSON.stringify(message);
    if (!this.bus) return this.#send(username, text);
    const here = this.connected(username);
    void this.bus.publish({ t: 'notice', username, text });
    return here;
  }

  #send(username: string, text: string): number {
    const set = this.#sockets.get(username);
    if (!set) return 0;
    for (const s of set) s.send(text);
    return set.size;
  }

  connected(username: string): number {
    return this.#sockets.get(username)?.size ?? 0;
  }
}
