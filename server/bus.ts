import { randomBytes } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './db/schema.js';

/**
 * What instances of the server tell each other: a session ended, users' roles or menus changed, a
 * view's records or definition changed, a realtime notice for a user. On PostgreSQL they travel
 * through LISTEN/NOTIFY on one channel; on embedded PGlite there is one instance and they stay in
 * process.
 *
 * Every event is applied locally at once, then sent; an instance ignores its own events when they
 * come back. A request answers only after its events are committed, and every request first waits for
 * the events committed before it (see barrier): so the next request, on whichever instance, sees the
 * change, without waiting for the events to come back.
 *
 * The view tables' triggers send on the same channel (row-notify.ts): on PostgreSQL every instance
 * hears them as it hears the others' events, behind the same barrier; on PGlite the one instance
 * listens to its database for them.
 */
export type BusEvent =
  | { t: 'session-ended'; sid: string }
  | { t: 'user-sessions-ended'; userId: number }
  | { t: 'access-changed' }
  | { t: 'view-changed'; viewId: number }
  /** Rows a record write changed, as they were (`gone`) and are (`come`), for other instances' list caches. */
  | { t: 'rows-changed'; viewId: number; gone: unknown[]; come: unknown[] }
  /**
   * Rows of a view changed by anything but the server's record writes, told by the view table's trigger
   * (row-notify.ts): their ids and the scopes they were and are in (each its scope columns' values), or,
   * `ids` null, any rows of the view.
   */
  | { t: 'rows-outside'; viewId: number; ids: number[] | null; scopes: Record<string, unknown>[] }
  | { t: 'notice'; userId: number; text: string };

export type BusMode = 'single-instance' | 'connected' | 'disconnected';

type Handler = (event: BusEvent) => void;

/** Listens on a channel of the embedded database; answers how to stop. */
export type EmbeddedListen = (channel: string, callback: (payload: string) => void) => Promise<() => Promise<void>>;

/** The channel of the bus; the view tables' triggers send on it too (see row-notify.ts). */
export const BUS_CHANNEL = 'wastegen_bus';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD = 7900;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5000;

export class Bus {
  readonly instanceId = randomBytes(6).toString('hex');
  readonly #handlers: Handler[] = [];
  /** Called when events may have been missed (the listening connection dropped): flush every cache. */
  readonly #resetHandlers: (() => void)[] = [];
  readonly #inFlight = new Set<{ started: number; done: Promise<void> }>();
  #currentBarrier: Promise<void> | undefined;
  #queuedBarrier: Promise<void> | undefined;
  #client: pg.Client | undefined;
  #mode: BusMode;
  #closed = false;
  #retry = RECONNECT_MIN_MS;
  #timer: NodeJS.Timeout | undefined;
  #unlisten: (() => Promise<void>) | undefined;

  private constructor(
    private readonly db: Kysely<DB>,
    private readonly url: string | undefined,
    private readonly log: (message: string) => void,
  ) {
    this.#mode = url ? 'disconnected' : 'single-instance';
  }

  /**
   * A bus over PostgreSQL when `url` is given, else one that stays in this process and, with `embedded`,
   * hears what the embedded database's triggers send.
   */
  static async open(
    db: Kysely<DB>,
    url: string | undefined,
    log: (message: string) => void = () => {},
    embedded?: EmbeddedListen,
  ): Promise<Bus> {
    const bus = new Bus(db, url, log);
    if (url) await bus.#connect();
    // PGlite hands a notification to its listeners as it reads the answer of the statement that committed
    // it, before that statement's caller goes on: the next request sees it without a barrier.
    else if (embedded) bus.#unlisten = await embedded(BUS_CHANNEL, (payload) => bus.#received(payload));
    return bus;
  }

  get mode(): BusMode {
    return this.#mode;
  }

  on(handler: Handler): void {
    this.#handlers.push(handler);
  }

  onReset(handler: () => void): void {
    this.#resetHandlers.push(handler);
  }

  /**
   * Applies the event here, then sends it to the other instances. The promise settles when the event
   * is committed (at once on a single instance); it never rejects.
   */
  publish(event: BusEvent): Promise<void> {
    this.#deliver(event);
    if (!this.url || this.#closed) return Promise.resolve();
    const entry = { started: performance.now(), done: this.#send(event) };
    this.#inFlight.add(entry);
    void entry.done.then(() => this.#inFlight.delete(entry));
    return entry.done;
  }

  /**
   * An event sent by the caller's own write statement, so that the write and its notice commit together:
   * one commit and one round trip instead of two. `notify` goes into that statement (once per written row
   * is fine: PostgreSQL folds equal notices of a transaction); it is null on a single instance. After the
   * statement, `done(sent)` applies the event here when `sent` (the statement committed and ran `notify`
   * at least once).
   */
  inStatement(
    event: BusEvent,
    /** What the other instances get instead of `event`, as a JSON value the statement computes; `event` when too long. */
    remote?: RawBuilder<unknown>,
  ): { notify: RawBuilder<string> | null; done: (sent: boolean) => void } {
    const done = (sent: boolean) => {
      if (sent) this.#deliver(event);
    };
    if (!this.url || this.#closed) return { notify: null, done };
    const payload = JSON.stringify({ o: this.instanceId, e: event });
    return {
      notify: remote
        ? sql<string>`pg_notify(${BUS_CHANNEL}, (select case when octet_length(p.x) <= ${MAX_PAYLOAD} then p.x else ${payload} end
            from (select json_build_object('o', ${this.instanceId}::text, 'e', ${remote})::text as x) p))::text`
        : sql<string>`pg_notify(${BUS_CHANNEL}, ${payload})::text`,
      done,
    };
  }

  /**
   * Waits for the events published since `since` (a performance.now() reading) to be committed. A
   * response waits on this, so that what a request changed is known everywhere before it answers.
   */
  async settled(since: number): Promise<void> {
    const pending = [...this.#inFlight].filter((x) => x.started >= since).map((x) => x.done);
    if (pending.length) await Promise.all(pending);
  }

  #send(event: BusEvent): Promise<void> {
    let payload = JSON.stringify({ o: this.instanceId, e: event });
    // The limit is in bytes (a Chinese character takes three), not characters.
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
      // Too long for NOTIFY: the other instances' users read a notice from the database on their next
      // look; rows too many to tell make them forget the view's cached lists.
      const shorter: BusEvent | undefined =
        event.t === 'notice'
          ? { t: 'notice', userId: event.userId, text: '' }
          : event.t === 'rows-changed'
            ? { t: 'view-changed', viewId: event.viewId }
            : undefined;
      if (shorter) payload = JSON.stringify({ o: this.instanceId, e: shorter });
    }
    return sql`select pg_notify(${BUS_CHANNEL}, ${payload})`.execute(this.db).then(
      () => {},
      (e: unknown) => {
        this.log(`bus: could not send ${event.t}: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
  }

  /**
   * Resolves once every event committed before the call has been received here. The database hands a
   * listening connection its pending notifications before the answer to its next query, so a round
   * trip on that connection is the barrier. Calls that arrive together share one round trip that
   * starts after all of them.
   */
  barrier(): Promise<void> {
    const client = this.#client;
    if (this.#mode !== 'connected' || !client) return Promise.resolve();
    if (this.#queuedBarrier) return this.#queuedBarrier;
    const start = () =>
      client.query('select 1').then(
        () => {},
        () => {},
      );
    if (!this.#currentBarrier) {
      const current = start().finally(() => {
        if (this.#currentBarrier === current) this.#currentBarrier = undefined;
      });
      this.#currentBarrier = current;
      return current;
    }
    const queued = this.#currentBarrier.then(() => {
      this.#queuedBarrier = undefined;
      const current = start().finally(() => {
        if (this.#currentBarrier === current) this.#currentBarrier = undefined;
      });
      this.#currentBarrier = current;
      return current;
    });
    this.#queuedBarrier = queued;
    return queued;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const c = this.#client;
    this.#client = undefined;
    await c?.end().catch(() => {});
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    await unlisten?.().catch(() => {});
  }

  /** A notification on the channel: another instance's event, or a view table's trigger's (sent as no instance's). */
  #received(payload: string): void {
    let msg: { o?: string; e?: BusEvent };
    try {
      msg = JSON.parse(payload);
    } catch {
      return;
    }
    if (msg.o !== this.instanceId && msg.e) this.#deliver(msg.e);
  }

  #deliver(event: BusEvent): void {
    for (const h of this.#handlers) {
      try {
        h(event);
      } catch (e) {
        this.log(`bus: handler failed for ${event.t}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  #reset(): void {
    for (const h of this.#resetHandlers) h();
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: `wastegen-bus-${this.instanceId}` });
    const lost = (why: string) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#mode = 'disconnected';
      this.log(`bus: listening connection lost (${why}); caches flushed, reconnecting`);
      // Events sent while we were away are lost: nothing cached may be trusted.
      this.#reset();
      client.end().catch(() => {});
      this.#schedule();
    };
    client.on('error', (e) => lost(e.message));
    client.on('end', () => lost('closed'));
    client.on('notification', (n) => {
      if (n.channel === BUS_CHANNEL && n.payload) this.#received(n.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${BUS_CHANNEL}`);
    } catch (e) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      this.log(`bus: cannot listen: ${e instanceof Error ? e.message : String(e)}`);
      this.#schedule();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#mode = 'connected';
    this.#retry = RECONNECT_MIN_MS;
    // Whatever happened while no connection listened is unknown.
    this.#reset();
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#connect(), this.#retry);
    this.#timer.unref();
    this.#retry = Math.min(this.#retry * 2, RECONNECT_MAX_MS);
  }
}
