/**
 * The realtime channel without React: one websocket to
 * /websocket/{username}?token=…, reopened 4 s after a close or an error, with a heartbeat after
 * 180 s without traffic. The WebSocket constructor and the timers are injectable for tests.
 *
 * Server messages (server/routes/websocket.ts, messages.ts):
 *   {type:'pong'}                          answer to a heartbeat
 *   {flag:'unread', body:{unreadNum}}      the unread count, once on connect
 *   {flag:…, body:{noticeInfo, …}}         a notice (system message, leave message)
 */

/** Close code the server uses for a missing, expired or foreign token: reconnecting cannot help. */
export const WS_UNAUTHORIZED = 4401;
/**
 * Close code for an account that must first resolve its state (password expired, agreement not
 * accepted): no channel until it has. Resolving it remounts the shell (the agreement page) or signs in
 * again (a password change ends the sessions), which opens a new channel; retrying meanwhile would only
 * keep the session from idling out.
 */
export const WS_PENDING = 4403;
export const RECONNECT_MS = 4000;
export const HEARTBEAT_MS = 180_000;
/** A heartbeat left unanswered this long means a dead connection (a sleeping laptop, a dropped proxy). */
export const PONG_TIMEOUT_MS = 10_000;
export const HEARTBEAT_MESSAGE = JSON.stringify({ type: 'heartbeat' });
export const WEBSOCKET_ERROR_MESSAGE = 'websocket数据传输发生错误';

/** The part of the browser's WebSocket the client uses. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketFactory = (url: string) => SocketLike;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface RealtimeHandlers {
  /** A notice's text (noticeInfo). */
  notice(text: string, message: RealtimeMessage): void;
  /** The unread count the server sent. */
  unread(count: number): void;
  /** A transport error; reported once until the channel is open again. */
  error(text: string): void;
}

export interface RealtimeMessage {
  type?: string;
  sender?: string;
  reception?: string;
  flag?: string;
  body?: { noticeInfo?: unknown; unreadNum?: unknown; [key: string]: unknown } | null;
}

export interface RealtimeOptions {
  /** The address to open; read again on every reconnect (the token may have changed). Null stops the channel. */
  url: () => string | null;
  handlers: RealtimeHandlers;
  createSocket?: SocketFactory;
  timers?: Timers;
  reconnectMs?: number;
  heartbeatMs?: number;
  pongTimeoutMs?: number;
}

const OPEN = 1;

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>),
};

/** ws:// or wss:// to match the page, so an https site does not open a blocked plain socket. */
export function realtimeUrl(location: { protocol: string; host: string }, username: string, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const bare = token.replace(/^Bearer\s+/i, '');
  return `${scheme}//${location.host}/websocket/${encodeURIComponent(username)}?token=${encodeURIComponent(bare)}`;
}

export class RealtimeClient {
  readonly #opts: Required<Omit<RealtimeOptions, 'handlers' | 'url'>> & Pick<RealtimeOptions, 'handlers' | 'url'>;
  #socket: SocketLike | null = null;
  #reconnect: unknown = null;
  #idle: unknown = null;
  #pong: unknown = null;
  #stopped = true;
  #errorShown = false;
  /** Why the channel stopped for good, if it did. */
  stoppedBecause: 'closed' | 'unauthorized' | 'pending' | 'no-address' | null = null;

  constructor(options: RealtimeOptions) {
    this.#opts = {
      url: options.url,
      handlers: options.handlers,
      createSocket: options.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike),
      timers: options.timers ?? defaultTimers,
      reconnectMs: options.reconnectMs ?? RECONNECT_MS,
      heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS,
      pongTimeoutMs: options.pongTimeoutMs ?? PONG_TIMEOUT_MS,
    };
  }

  get connected(): boolean {
    return this.#socket?.readyState === OPEN;
  }

  /** Opens the channel (idempotent while it runs). */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.stoppedBecause = null;
    this.#open();
  }

  /** Closes the channel on purpose: no reconnect (logout, unmount, another user). */
  close(): void {
    this.#stop('closed');
  }

  #stop(reason: NonNullable<RealtimeClient['stoppedBecause']>): void {
    this.#stopped = true;
    this.stoppedBecause = reason;
    this.#clearTimers();
    const socket = this.#socket;
    this.#socket = null;
    if (socket) {
      this.#detach(socket);
      try {
        socket.close(1000, 'closed by client');
      } catch {
        // Already closing.
      }
    }
  }

  #open(): void {
    if (this.#stopped) return;
    const url = this.#opts.url();
    if (!url) {
      this.#stop('no-address');
      return;
    }
    let socket: SocketLike;
    try {
      socket = this.#opts.createSocket(url);
    } catch {
      // A malformed address or a blocked scheme: report, and try again later like any failure.
      this.#failed();
      return;
    }
    this.#socket = socket;
    socket.onopen = () => {
      if (socket !== this.#socket) return;
      this.#errorShown = false;
      this.#armIdle();
    };
    socket.onmessage = (ev) => {
      if (socket !== this.#socket) return;
      this.#armIdle();
      this.#receive(ev.data);
    };
    socket.onerror = () => {
      if (socket !== this.#socket) return;
      this.#failed();
    };
    socket.onclose = (ev) => {
      if (socket !== this.#socket) return;
      this.#detach(socket);
      this.#socket = null;
      this.#clearTimers();
      if (ev.code === WS_UNAUTHORIZED) {
        // The session is gone; the next API call brings up the re-login confirm.
        this.#stop('unauthorized');
        return;
      }
      if (ev.code === WS_PENDING) {
        // The account must first change its password or accept the agreement; the next API call says which.
        this.#stop('pending');
        return;
      }
      this.#scheduleReconnect();
    };
  }

  /** An error: tell the user once, drop the socket, try again in 4 s. */
  #failed(): void {
    if (!this.#errorShown) {
      this.#errorShown = true;
      this.#opts.handlers.error(WEBSOCKET_ERROR_MESSAGE);
    }
    this.#dropAndReconnect();
  }

  /** Closes the socket, if any, without hearing from it again, and tries again after the delay. */
  #dropAndReconnect(): void {
    const socket = this.#socket;
    this.#socket = null;
    this.#clearTimers();
    if (socket) {
      this.#detach(socket);
      try {
        socket.close();
      } catch {
        // Already closed.
      }
    }
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped || this.#reconnect !== null) return;
    this.#reconnect = this.#opts.timers.setTimeout(() => {
      this.#reconnect = null;
      this.#open();
    }, this.#opts.reconnectMs);
  }

  /** Restarts the idle countdown: any traffic proves the connection alive. */
  #armIdle(): void {
    const { timers } = this.#opts;
    if (this.#idle !== null) timers.clearTimeout(this.#idle);
    if (this.#pong !== null) timers.clearTimeout(this.#pong);
    this.#pong = null;
    this.#idle = timers.setTimeout(() => {
      this.#idle = null;
      this.#heartbeat();
    }, this.#opts.heartbeatMs);
  }

  #heartbeat(): void {
    const socket = this.#socket;
    if (!socket || socket.readyState !== OPEN) return;
    try {
      socket.send(HEARTBEAT_MESSAGE);
    } catch {
      this.#failed();
      return;
    }
    this.#pong = this.#opts.timers.setTimeout(() => {
      this.#pong = null;
      // No answer: the connection is dead without having said so. Drop it and reconnect.
      this.#dropAndReconnect();
    }, this.#opts.pongTimeoutMs);
  }

  #receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: RealtimeMessage;
    try {
      message = JSON.parse(data) as RealtimeMessage;
    } catch {
      return;
    }
    if (!message || typeof message !== 'object' || message.type === 'pong') return;
    const body = message.body;
    if (!body || typeof body !== 'object') return;
    if (typeof body.unreadNum === 'number' || (typeof body.unreadNum === 'string' && body.unreadNum.trim() !== '')) {
      const n = Number(body.unreadNum);
      if (Number.isFinite(n)) this.#opts.handlers.unread(n);
    }
    if (typeof body.noticeInfo === 'string' && body.noticeInfo.trim()) this.#opts.handlers.notice(body.noticeInfo, message);
  }

  #clearTimers(): void {
    const { timers } = this.#opts;
    for (const handle of [this.#reconnect, this.#idle, this.#pong]) if (handle !== null) timers.clearTimeout(handle);
    this.#reconnect = this.#idle = this.#pong = null;
  }

  #detach(socket: SocketLike): void {
    socket.onopen = socket.onmessage = socket.onerror = null;
    socket.onclose = null;
  }
}
