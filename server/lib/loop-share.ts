/**
 * Shares the event loop's turns between computations and I/O: at most `perTurn` callers go on per
 * turn; the rest wait, in order, for the next turns. Between turns the loop reads its sockets, so a
 * short wait on I/O (a write's statement answered, a barrier) is not held up behind a long run of
 * computations that became ready at once.
 */
export class LoopShare {
  #ran = 0;
  readonly #queue: (() => void)[] = [];
  #armed = false;

  constructor(private readonly perTurn: number) {}

  /** Undefined when the caller may go on now; otherwise a promise that settles on its turn. */
  take(): Promise<void> | undefined {
    if (this.#ran < this.perTurn && !this.#queue.length) {
      this.#ran++;
      this.#arm();
      return undefined;
    }
    const turn = new Promise<void>((resolve) => this.#queue.push(resolve));
    this.#arm();
    return turn;
  }

  #arm(): void {
    if (this.#armed) return;
    this.#armed = true;
    // An immediate queued while immediates run waits for the next turn, after the loop's poll for I/O.
    setImmediate(() => this.#next());
  }

  #next(): void {
    this.#armed = false;
    this.#ran = 0;
    while (this.#ran < this.perTurn && this.#queue.length) {
      this.#ran++;
      (this.#queue.shift() as () => void)();
    }
    // Those let go on this turn count against it: the count is set back on the next.
    if (this.#queue.length || this.#ran) this.#arm();
  }
}
