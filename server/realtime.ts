import type { Bus } from './bus.js';

/** Close code for a missing, invalid, foreign or ended session (4000–4999 are free for applications). */
export const WS_UNAUTHORIZED = 4401;
/**
 * Close code for a session whose account must first resolve its state (password expired, entry
 * agreement not accepted): the session lives on, and a socket opens again once the state is resolved.
 */
export const WS_PENDING = 4403;

/** Message pushed over /websocket/{username}. */
export interface RealtimeMessage {
  sender: string;
  reception: string;
  body: unknown;
  flag: string;
}

export interface RealtimeSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Whose socket it is: the account and the session its token belongs to. */
export interface SocketOwner {
  username: string;
  userId: number;
  sessionId: string;
  /** When (ms) the account's password reaches its maximum age: from then on the socket gets nothing. */
  pendingAt?: number;
}

interface Entry extends SocketOwner {
  socket: RealtimeSocket;
}

/**
 * Of the given session ids, the ones that have ended (gone, the account disabled, idle too long), and
 * those whose account must first resolve its state (password expired, agreement not accepted).
 */
export type SessionCheck = (sessionIds: string[]) => Promise<{ ended: string[]; pending: string[] }>;

/**
 * Registry of this instance's open websockets by account id and by session; routes push notices
 * through it, and the bus carries each notice to the instances where the user's other sockets are.
 *
 * A socket lives no longer than its session: when a session ends on any instance (logout, a password
 * change or reset, a disabled or deleted account), the bus tells every instance and each closes that
 * session's sockets with 4401. Sessions that end by idling, or whose end this instance may have
 * missed, are found by a periodic check of the sessions that still have sockets here.
 *
 * Nor does a socket serve an account that must first resolve its state, as no HTTP call but the
 * `pending` ones does: the route refuses to open one (4403), the periodic check closes those whose
 * account became pending, and a notice is never sent to a socket whose password has aged out since.
 */
export class Realtime {
  /** By account id, never by username: a renamed account's open sockets must not hear the name's next holder. */
  readonly #byUser = new Map<number, Set<Entry>>();
  readonly #bySession = new Map<string, Set<Entry>>();
  #check: SessionCheck | undefined;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;

  constructor(private readonly bus?: Bus) {
    bus?.on((e) => {
      if (e.t === 'notice' && e.text) this.#send(e.userId, e.text);
      else if (e.t === 'session-ended') this.endSession(e.sid);
      else if (e.t === 'user-sessions-ended') this.endUser(e.userId);
    });
    // Events may have been missed: every session that has a socket here is checked again.
    bus?.onReset(() => void this.check());
  }

  add(socket: RealtimeSocket, owner: SocketOwner): () => void {
    const entry: Entry = { ...owner, socket };
    let users = this.#byUser.get(owner.userId);
    if (!users) {
      users = new Set();
      this.#byUser.set(owner.userId, users);
    }
    users.add(entry);
    let sessions = this.#bySession.get(owner.sessionId);
    if (!sessions) {
      sessions = new Set();
      this.#bySession.set(owner.sessionId, sessions);
    }
    sessions.add(entry);
    return () => this.#remove(entry);
  }

  #remove(entry: Entry): void {
    const users = this.#byUser.get(entry.userId);
    if (users?.delete(entry) && !users.size) this.#byUser.delete(entry.userId);
    const sessions = this.#bySession.get(entry.sessionId);
    if (sessions?.delete(entry) && !sessions.size) this.#bySession.delete(entry.sessionId);
  }

  /** Forgets the socket at once (it receives nothing more) and closes it with 4401, or 4403 for a pending account. */
  #end(entry: Entry, code = WS_UNAUTHORIZED): void {
    this.#remove(entry);
    try {
      entry.socket.close(code, code === WS_PENDING ? 'account pending' : 'session ended');
    } catch {
      // Already closed.
    }
  }

  /** Closes this instance's sockets of the session; answers how many. */
  endSession(sessionId: string): number {
    const entries = [...(this.#bySession.get(sessionId) ?? [])];
    for (const e of entries) this.#end(e);
    return entries.length;
  }

  /** Closes this instance's sockets of a session whose account must first resolve its state (4403); answers how many. */
  holdSession(sessionId: string): number {
    const entries = [...(this.#bySession.get(sessionId) ?? [])];
    for (const e of entries) this.#end(e, WS_PENDING);
    return entries.length;
  }

  /** Closes this instance's sockets of every session of the user; answers how many. */
  endUser(userId: number): number {
    let n = 0;
    for (const sessions of [...this.#bySession.values()]) {
      for (const e of [...sessions]) {
        if (e.userId !== userId) continue;
        this.#end(e);
        n++;
      }
    }
    return n;
  }

  /**
   * Checks the sessions of the open sockets every `everyMs` and closes the sockets of those that
   * ended (4401) or whose account became pending (4403). Answers a function that stops the checks.
   */
  watch(check: SessionCheck, everyMs: number): () => void {
    this.#check = check;
    clearInterval(this.#timer);
    this.#timer = setInterval(() => void this.check(), everyMs);
    this.#timer.unref();
    return () => {
      clearInterval(this.#timer);
      this.#timer = undefined;
      this.#check = undefined;
    };
  }

  /** One check of the sessions that have sockets here (one at a time; a call during a check joins it). */
  check(): Promise<void> {
    if (this.#checking) return this.#checking;
    const sessionCheck = this.#check;
    const ids = [...this.#bySession.keys()];
    if (!sessionCheck || !ids.length) return Promise.resolve();
    const run = sessionCheck(ids)
      .then(
        ({ ended, pending }) => {
          for (const sid of ended) this.endSession(sid);
          for (const sid of pending) this.holdSession(sid);
        },
        () => {
          // The database is unreachable: the next check tries again.
        },
      )
      .finally(() => {
        this.#checking = undefined;
      });
    this.#checking = run;
    return run;
  }

  /** Sends the message to the account's sockets on every instance; answers how many are on this one. */
  push(userId: number, message: RealtimeMessage): number {
    const text = JSON.stringify(message);
    if (!this.bus) return this.#send(userId, text);
    const here = this.connected(userId);
    void this.bus.publish({ t: 'notice', userId, text });
    return here;
  }

  #send(userId: number, text: string): number {
    const set = this.#byUser.get(userId);
    if (!set) return 0;
    const now = Date.now();
    let sent = 0;
    for (const e of [...set]) {
      // A password that aged out since the socket opened: the account is pending, the socket closes instead.
      if (e.pendingAt !== undefined && now > e.pendingAt) {
        this.#end(e, WS_PENDING);
        continue;
      }
      e.socket.send(text);
      sent++;
    }
    return sent;
  }

  /** Open sockets of the account on this instance. */
  connected(userId: number): number {
    return this.#byUser.get(userId)?.size ?? 0;
  }

  /** Open sockets of the session on this instance. */
  connectedSession(sessionId: string): number {
    return this.#bySession.get(sessionId)?.size ?? 0;
  }
}
