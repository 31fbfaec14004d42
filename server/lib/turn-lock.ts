/** A fair readers-writer lock: readers share it, a writer holds it alone, waiters are served in order. */
export class TurnLock {
  #readers = 0;
  #writer = false;
  readonly #queue: { write: boolean; go: () => void }[] = [];

  async run<T>(write: boolean, body: () => Promise<T>): Promise<T> {
    if (this.#queue.length || this.#writer || (write && this.#readers)) {
      await new Promise<void>((go) => this.#queue.push({ write, go }));
    } else if (write) this.#writer = true;
    else this.#readers++;
    try {
      return await body();
    } finally {
      if (write) this.#writer = false;
      else this.#readers--;
      this.#next();
    }
  }

  #next(): void {
    while (this.#queue.length && !this.#writer) {
      const head = this.#queue[0] as { write: boolean; go: () => void };
      if (head.write && this.#readers) return;
      this.#queue.shift();
      if (head.write) this.#writer = true;
      else this.#readers++;
      head.go();
    }
  }
}
