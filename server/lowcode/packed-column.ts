import { dropOldest, used } from '../lib/recent.js';
import type { Held } from './row-order.js';

/** Places per chunk of a packed text column: a write has the chunk joined again, so chunks stay small. */
export const CHUNK_PLACES = 1024;

/**
 * A text column's cells, joined by line breaks in chunks of places (an empty place or cell as nothing),
 * so that a search for text without line breaks runs over contiguous text. A chunk is joined again
 * after a row in it changed, when next searched.
 */
export class PackedColumn {
  /** Each chunk's text and where each place's cell starts in it; null: a cell is not text. */
  readonly #chunks: ({ text: string; starts: Int32Array } | null | undefined)[] = [];
  /**
   * The places whose cell holds each text searched for lately (searches that found few rows), least
   * recently used first: the same text asked again, in another order, scope or with other filters, is not
   * searched for again. Each is brought up to date when it is asked for, by the places changed since
   * (`at`, a position in the log of changed places), so a write costs no more than a note.
   */
  readonly #found = new Map<string, { places: Set<number>; at: number }>();
  /** Places changed while texts were remembered; `#logStart` is the position of its first. */
  #log: number[] = [];
  #logStart = 0;

  constructor(readonly column: string) {}

  /** The row at `place` is taken out (`held` undefined) or put in. */
  changed(place: number, held?: Held): void {
    this.#chunks[Math.floor(place / CHUNK_PLACES)] = undefined;
    if (!this.#found.size) return;
    // A cell that is not text is tested row by row: what was found cannot tell it.
    if (held && typeof (held.raw[this.column] ?? '') !== 'string') {
      this.#found.clear();
      return;
    }
    this.#log.push(place);
    if (this.#log.length > LOG_MAX) {
      // The oldest half goes; texts not brought up to date since are searched for again.
      const dropped = this.#log.length >> 1;
      this.#log = this.#log.slice(dropped);
      this.#logStart += dropped;
    }
  }

  /** The places whose cell holds `text` now, when they were found lately. */
  found(text: string, held: readonly (Held | undefined)[]): ReadonlySet<number> | undefined {
    const entry = used(this.#found, text);
    if (!entry) return undefined;
    if (entry.at < this.#logStart) {
      this.#found.delete(text);
      return undefined;
    }
    const { places } = entry;
    for (let i = entry.at - this.#logStart; i < this.#log.length; i++) {
      const place = this.#log[i] as number;
      const v = held[place]?.raw[this.column] ?? '';
      if ((v as string).includes(text)) places.add(place);
      else places.delete(place);
    }
    entry.at = this.#logStart + this.#log.length;
    return places;
  }

  /** Remembers the places found to hold `text` (every chunk searched was text), when they are few. */
  keep(text: string, places: Set<number>): void {
    if (places.size > FOUND_MAX_PLACES) return;
    if (!this.#found.size) {
      // Nothing remembered needs the log: it starts again.
      this.#logStart += this.#log.length;
      this.#log = [];
    }
    this.#found.set(text, { places, at: this.#logStart + this.#log.length });
    dropOldest(this.#found, FOUND_KEPT);
  }

  chunk(n: number, held: readonly (Held | undefined)[], used: number): { text: string; starts: Int32Array } | null {
    let c = this.#chunks[n];
    if (c === undefined) {
      const from = n * CHUNK_PLACES;
      const to = Math.min(used, from + CHUNK_PLACES);
      const cells: string[] = [];
      const starts = new Int32Array(to - from);
      let length = 0;
      c = { text: '', starts };
      for (let p = from; p < to; p++) {
        const v = held[p]?.raw[this.column] ?? '';
        if (typeof v !== 'string') {
          c = null;
          break;
        }
        starts[p - from] = length;
        cells.push(v);
        length += v.length + 1;
      }
      if (c) c.text = cells.join('\n');
      this.#chunks[n] = c;
    }
    return c;
  }
}

/**
 * Texts whose places are remembered per column, and the most places remembered for one: a search is
 * mostly for a text few rows hold; a text many hold is searched for again (its marks are kept apart).
 */
const FOUND_KEPT = 1024;
const FOUND_MAX_PLACES = 512;
/** Changed places noted for the remembered texts: a text asked for again re-tests at most these. */
const LOG_MAX = 8192;
