/**
 * In-process cache of /api/general/list rows and filter counts. PGlite runs every query on one thread,
 * so under concurrent load misses queue behind each other: a count(*) over a filter costs 3–40 ms on
 * 100,000 rows, a page 1–2 ms. A known filter's count is reused for every page of it, and pages are
 * read in blocks (see listPage in routes/general.ts), so paging on costs no query.
 *
 * Correctness rests on one rule: every write path of a view (record add, update, delete, import,
 * scripted actions, design, publish, view deletion) calls changeView() (view-store.ts) after it commits,
 * which bumps the view's version here. Entries remember the version from BEFORE their query ran, so an
 * answer computed concurrently with a write is never served after it.
 *
 * The bound is on cached rows (an array weighs its length, anything else 1), least recently used first out.
 */
export class ListCache {
  readonly #versions = new Map<number, number>();
  /** Moves every version on at once (bumpAll). */
  #generation = 0;
  readonly #entries = new Map<string, { version: number; value: unknown; weight: number }>();
  #weight = 0;
  readonly #inFlight = new Map<string, Promise<unknown>>();

  constructor(
    readonly enabled: boolean,
    // About 30 MB of typical rows.
    private readonly maxWeight = 60_000,
    /** False while invalidations may be missed (another instance's writes unheard): nothing is served from the cache. */
    private readonly trusted: () => boolean = () => true,
  ) {}

  version(viewId: number): number {
    return (this.#versions.get(viewId) ?? 0) + this.#generation * 1_000_000_000;
  }

  bump(viewId: number): void {
    this.#versions.set(viewId, (this.#versions.get(viewId) ?? 0) + 1);
  }

  /** Forgets everything: every view's version moves on, so no entry or answer in flight is served again. */
  bumpAll(): void {
    this.#generation++;
    this.#entries.clear();
    this.#weight = 0;
  }

  #get<T>(viewId: number, key: string): T | undefined {
    const k = `${viewId}|${key}`;
    const hit = this.#entries.get(k);
    if (!hit) return undefined;
    this.#entries.delete(k);
    if (hit.version !== this.version(viewId)) {
      this.#weight -= hit.weight;
      return undefined;
    }
    this.#entries.set(k, hit); // most recently used goes last
    return hit.value as T;
  }

  /** `version` is what version(viewId) answered before the query that produced `value` started. */
  #set(viewId: number, key: string, version: number, value: unknown): void {
    if (version !== this.version(viewId)) return;
    const k = `${viewId}|${key}`;
    const old = this.#entries.get(k);
    if (old) {
      this.#entries.delete(k);
      this.#weight -= old.weight;
    }
    const weight = Array.isArray(value) ? Math.max(1, value.length) : 1;
    this.#entries.set(k, { version, value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#weight <= this.maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
  }

  /**
   * The cached value, or the one being computed for the same view version and key (50 clients asking
   * for the same new block run one query, not 50), or a fresh computation that is then cached.
   */
  async through<T>(viewId: number, key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.enabled || !this.trusted()) return compute();
    const hit = this.#get<T>(viewId, key);
    if (hit !== undefined) return hit;
    const version = this.version(viewId);
    const flightKey = `${viewId}|${version}|${key}`;
    const pending = this.#inFlight.get(flightKey);
    if (pending) return pending as Promise<T>;
    const run = compute()
      .then((value) => {
        this.#set(viewId, key, version, value);
        return value;
      })
      .finally(() => this.#inFlight.delete(flightKey));
    this.#inFlight.set(flightKey, run);
    return run;
  }
}
