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
  closeCode: number | null = null;
  readonly ws: Ws;
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (data: Buffer) => {
      const text = data.toString();
      try {
        this.messages.push(JSON.parse(text));
      } catch {
        this.messages.push(text);
      }
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

  async waitFor<T>(pick: (m: any) => boolean, timeoutMs = 5000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.messages.find(pick);
      if (hit !== undefined) return hit as T;
      if (Date.now() > until) throw new Error(`no matching message; got ${JSON.stringify(this.messages)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
