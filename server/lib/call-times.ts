import { type Insertable, type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * How long each answered call took, written into the operation log after it answered: its trail's
 * entries (those the audit trigger wrote under its request id) get the time, and a logged call that
 * left none (a sign-in) gets one entry of its own.
 *
 * Times are gathered for a short while (GATHER_MS) and written together in one statement, and the calls
 * that end while a write is under way go with the next one, so under load one round trip serves many
 * calls: the log's time column lags its call by a tenth of a second, and the database is asked at most
 * ten times a second however many calls end.
 */
export interface EndedCall {
  requestId: string | null;
  /** Milliseconds the call took. */
  time: number;
  /** The call's own entry, when none of the trail's holds its time (a logged call only). */
  entry?: Insertable<DB['sys_log']>;
}

/** How long times are gathered before they are written together. */
export const GATHER_MS = 100;

export class CallTimes {
  #queue: EndedCall[] = [];
  #writing: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly warn: (e: unknown) => void,
    private readonly gatherMs = GATHER_MS,
  ) {}

  /** Writes the call's time with the others that end within the gathering time. */
  add(call: EndedCall): void {
    this.#queue.push(call);
    this.#schedule();
  }

  /** Settles when every call added so far has been written (those being gathered are written now). */
  async settled(): Promise<void> {
    for (;;) {
      if (this.#timer) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#start();
      }
      if (!this.#writing) return;
      await this.#writing;
    }
  }

  #schedule(): void {
    if (this.#writing || this.#timer || !this.#queue.length) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#start();
    }, this.gatherMs);
    // Gathering does not keep the process alive: closing the server settles what is left.
    this.#timer.unref?.();
  }

  #start(): void {
    if (this.#writing || !this.#queue.length) return;
    const batch = this.#queue;
    this.#queue = [];
    this.#writing = this.#write(batch)
      .catch((e: unknown) => this.warn(e))
      .finally(() => {
        this.#writing = undefined;
        // Calls that ended during the write are gathered for the next one.
        this.#schedule();
      });
  }

  async #write(batch: EndedCall[]): Promise<void> {
    const timed = batch.filter((c) => c.requestId !== null);
    const found = new Set<string>();
    if (timed.length) {
      const rows = JSON.stringify(timed.map((c) => ({ r: c.requestId, t: c.time })));
      // Spelt as the query builder spells a write of the log, which needs no writer setting (db/audit.ts).
      const res = await sql<{ r: string }>`update "sys_log" as l set time = v.t
        from json_to_recordset(${rows}::json) as v(r text, t integer)
        where l.request_id = v.r returning l.request_id as r`.execute(this.db);
      for (const row of res.rows) found.add(row.r);
    }
    const own = batch.flatMap((c) => (c.entry && (c.requestId === null || !found.has(c.requestId)) ? [c.entry] : []));
    if (!own.length) return;
    try {
      await this.db.insertInto('sys_log').values(own).execute();
    } catch {
      // One refused entry does not take the others with it.
      for (const entry of own) await this.db.insertInto('sys_log').values(entry).execute().catch(this.warn);
    }
  }
}
