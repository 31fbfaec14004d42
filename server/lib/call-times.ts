import { type Insertable, type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * How long each answered call took, written into the operation log after it answered: its trail's
 * entries (those the audit trigger wrote under its request id) get the time, and a logged call that
 * left none (a sign-in) gets one entry of its own.
 *
 * The calls that end while a write of times is under way wait for it and go together in the next one
 * statement, so under load one round trip serves many calls, and a lone call is written at once.
 */
export interface EndedCall {
  requestId: string | null;
  /** Milliseconds the call took. */
  time: number;
  /** The call's own entry, when none of the trail's holds its time (a logged call only). */
  entry?: Insertable<DB['sys_log']>;
}

export class CallTimes {
  #queue: EndedCall[] = [];
  #writing: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly warn: (e: unknown) => void,
  ) {}

  /** Writes the call's time (now, or with the next batch when a write is under way). */
  add(call: EndedCall): void {
    this.#queue.push(call);
    this.#writing ??= this.#drain().finally(() => {
      this.#writing = undefined;
    });
  }

  /** Settles when every call added so far has been written. */
  async settled(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length) {
      const batch = this.#queue;
      this.#queue = [];
      try {
        await this.#write(batch);
      } catch (e) {
        this.warn(e);
      }
    }
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
