import { createRequire } from 'node:module';

// `ws` ships without type declarations here; this is the part of its API the tests use.
interface Ws {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  on(event: 'message', cb: (data: Buffer) => void): void;
  on(event: 'close', cb: (code: number, reason: Buffer) => void): void;
  on(event: 'open' | 'error', cb: (arg?: unknown) => void): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string) => Ws;

export interface Pushed {
  sender: string;
  reception: string;
  body: Record<string, unknown>;
  flag: string;
}

/** A client socket that records every message and the close code. */
export class Client {
  readonly messages: unknown[] = [];
  /** Called with every message as it arrives (waitFor's waiters). */
  readonly #listeners = new Set<(m: unknown) => void>();
  closeCode: number | null = null;
  readonly ws: Ws;
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (data: Buffer) => {
      const text = data.toString();
      let m: unknown = text;
      try {
        m = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      this.messages.push(m);
      for (const l of [...this.#listeners]) l(m);
    });
    this.opened = new Promise((resolve, reject) => {
      this.ws.on('open', () => resolve());
      this.ws.on('error', (e) => reject(e));
    });
    this.closed = new Promise((resolve) =>
      this.ws.on('close', (code: number) => {
        this.closeCode = code;
        resolve(code);
      }),
    );
  }

  /** The first message, past or to come, that `pick` accepts; fails after `timeoutMs` or when the socket closes. */
  waitFor<T>(pick: (m: any) => boolean, timeoutMs = 5000): Promise<T> {
    const hit = this.messages.find(pick);
    if (hit !== undefined) return Promise.resolve(hit as T);
    return new Promise<T>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
      };
      const fail = (why: string) => {
        done();
        reject(new Error(`no matching message (${why}); got ${JSON.stringify(this.messages)}`));
      };
      const listener = (m: unknown) => {
        if (!pick(m)) return;
        done();
        resolve(m as T);
      };
      const timer = setTimeout(() => fail(`${timeoutMs} ms passed`), timeoutMs);
      this.#listeners.add(listener);
      void this.closed.then((code) => {
        if (this.#listeners.has(listener)) fail(`socket closed with ${code}`);
      });
    });
  }
}
