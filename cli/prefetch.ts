import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { sourceHashOf } from '../src/model/canonical.js';
import { readBoundedFile } from './bounded-read.js';
import { sha } from './generate-cache.js';

/**
 * Definitions read ahead of the compile on another thread (the writing thread, idle while the first
 * pages compile): each file's text, the cache's hash of its bytes and the content hash its page
 * records, which together cost the compiling thread about a seventh of its work. The compile takes
 * them in order; whatever has not arrived when it gets there, it reads and hashes itself, so a slow or
 * failed read-ahead costs nothing but the work it did.
 */

/** One definition read ahead. `hash` is undefined when its text is not JSON (the compile reports it). */
export interface ReadAhead {
  i: number;
  text: string;
  sha: string;
  hash: string | undefined;
}

/** Atomics.waitAsync (Node 16 on; not in the TypeScript library this project targets). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(array: Int32Array, index: number, value: number, timeout: number): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

/** How far the read-ahead may run before the compile: enough to never wait, few enough to hold little. */
export const LEAD = 24;

/** What the compiling thread sends to start a read-ahead. */
export interface ReadAheadStart {
  type: 'prefetch';
  files: string[];
  port: MessagePort;
  /**
   * [0]: the first index the compile has not taken yet (it moves on whether it took one or not);
   * [1]: 1 while the read-ahead waits for [0] to move (only then is it woken).
   */
  position: Int32Array;
}

/** The shared position of a read-ahead (see ReadAheadStart). */
export const readAheadPosition = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));

/** The compiling thread's side: take(i) answers definition i when it has arrived, else undefined. */
export class ReadAheadTaker {
  private readonly early = new Map<number, ReadAhead>();

  constructor(
    private readonly port: MessagePort,
    private readonly position: Int32Array,
  ) {}

  take(index: number): ReadAhead | undefined {
    Atomics.store(this.position, 0, index + 1);
    // Waking a waiter costs about a tenth of a millisecond, even with none there: only a waiting read-ahead is woken.
    if (Atomics.load(this.position, 1) === 1) Atomics.notify(this.position, 0);
    const known = this.early.get(index);
    if (known) {
      this.early.delete(index);
      return known;
    }
    for (;;) {
      const received = receiveMessageOnPort(this.port);
      if (!received) return undefined;
      const entry = received.message as ReadAhead;
      if (entry.i === index) return entry;
      if (entry.i > index) this.early.set(entry.i, entry);
    }
  }

  /** Stops the read-ahead (the compile is over, or failed). */
  close(): void {
    Atomics.store(this.position, 0, 0x7fffffff);
    Atomics.notify(this.position, 0);
    this.early.clear();
    this.port.close();
  }
}

/** Reads and hashes one definition file; undefined when it cannot be read or is refused (the compile reports that). */
export function readAhead(i: number, file: string): ReadAhead | undefined {
  let bytes: Buffer;
  try {
    bytes = readBoundedFile(file);
  } catch {
    return undefined;
  }
  const text = bytes.toString('utf8');
  let hash: string | undefined;
  try {
    hash = sourceHashOf(JSON.parse(text));
  } catch {
    hash = undefined;
  }
  return { i, text, sha: sha(bytes), hash };
}

/**
 * The reading thread's side: reads ahead of the compile, at most LEAD definitions past it, yielding
 * to the thread's other messages (the files to write) between small runs of reads.
 */
export async function runReadAhead(start: ReadAheadStart, stopped: () => boolean): Promise<void> {
  const { files, port, position } = start;
  let next = 0;
  for (;;) {
    if (stopped()) break;
    const at = Atomics.load(position, 0);
    if (at >= files.length) break;
    next = Math.max(next, at);
    if (next >= files.length) break;
    if (next >= at + LEAD) {
      // Far enough ahead: wait until the compile takes one (or a while, to look at stopped() again).
      // The flag is raised before the wait looks at [0]: a take either moves [0] first (the wait does
      // not start) or sees the flag afterwards and wakes it.
      Atomics.store(position, 1, 1);
      const waited = waitAsync(position, 0, at, 100);
      if (waited.async) await waited.value;
      Atomics.store(position, 1, 0);
      continue;
    }
    const end = Math.min(files.length, at + LEAD, next + 4);
    for (; next < end; next++) {
      const entry = readAhead(next, files[next] as string);
      if (entry) port.postMessage(entry);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  port.close();
}
