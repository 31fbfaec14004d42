import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { type Committed, DeferredWrites, WriteFailure } from './generated-dir.js';
import { compiledBuildHash, PACKAGE_ROOT } from './paths.js';
import { type ReadAheadStart, ReadAheadTaker, readAheadPosition } from './prefetch.js';

/**
 * Files on their way to the writing thread: their paths, and their texts as UTF-8 bytes, one after
 * another in one buffer (file i ends at ends[i]). The buffer is transferred, not copied: a text sent
 * as a string is copied twice (serialised, then read again on the other side) and still has to be
 * encoded there before it is written.
 */
export interface FileBatch {
  type: 'add';
  paths: string[];
  bytes: Uint8Array;
  ends: number[];
}

/**
 * Makes a text flat at once, and answers it. An emitted text is a rope of the pieces it was printed
 * from: walked while they are fresh, it costs about half what it costs at the end of a batch, after
 * young-generation collections have moved them (and copied every piece of it once more).
 */
export function flattened(text: string): string {
  // Reading a character makes V8 flatten a rope in place.
  text.charCodeAt(0);
  return text;
}

/** Where texts are encoded before their bytes are copied into a batch: grown as needed, never sent. */
let scratch = Buffer.allocUnsafeSlow(1 << 16);

/** Packs files into one batch, and the buffer to transfer with it. */
export function packFiles(files: readonly (readonly [path: string, text: string])[]): [FileBatch, ArrayBuffer[]] {
  const paths: string[] = [];
  const ends: number[] = [];
  // A UTF-16 code unit takes at most 3 bytes of UTF-8; encoding into room that large at once is
  // cheaper than measuring each text first.
  let room = 0;
  for (const [, text] of files) room += text.length * 3;
  if (scratch.length < room) scratch = Buffer.allocUnsafeSlow(Math.max(room, scratch.length * 2));
  let size = 0;
  for (const [path, text] of files) {
    paths.push(path);
    size += scratch.write(text, size, 'utf8');
    ends.push(size);
  }
  // A buffer of its own (not a slice of Node's shared pool or of the scratch), so it can be transferred.
  const bytes = new Uint8Array(new ArrayBuffer(size));
  bytes.set(scratch.subarray(0, size));
  return [{ type: 'add', paths, bytes, ends }, [bytes.buffer as ArrayBuffer]];
}

/** The files of a batch, each text as a view of the batch's bytes. */
export function* unpackFiles(batch: FileBatch): Generator<[path: string, bytes: Uint8Array]> {
  let start = 0;
  for (let i = 0; i < batch.paths.length; i++) {
    const end = batch.ends[i] as number;
    yield [batch.paths[i] as string, batch.bytes.subarray(start, end)];
    start = end;
  }
}

/** Messages to the writing thread. */
export type WriterMessage =
  | FileBatch
  | { type: 'commit' }
  | { type: 'abort' }
  /** A port another thread sends its files on ('add'), then 'end' after the last. */
  | { type: 'port'; port: MessagePort }
  /** Definition files to read ahead of the compile (see ReadAheadTaker). */
  | ReadAheadStart
  | { type: 'end' };
/** Its one answer to commit or abort: what changed, or why nothing did. */
export type WriterReply = { type: 'done'; staleness?: Committed; error?: string; changed?: boolean };

/**
 * Takes the files of a compile as they are emitted and writes them to generated/ (see
 * StagedWrites: nothing shows before commit, and abort leaves the folder as it was). The compiled
 * CLI writes on a worker thread, overlapping the writes with the compile; run from the TypeScript
 * sources, it writes on the calling thread. Failures are WriteFailures.
 */
export interface GeneratedWriter {
  add(path: string, text: string): void;
  /**
   * A port on which another thread can send files (`{ type: 'add', files }`, then `{ type: 'end' }`
   * after its last), when the writing is on a thread; commit waits for that 'end'.
   */
  port?(): MessagePort;
  /**
   * Reads the definition files (absolute paths, in the order the compile takes them) ahead of the
   * compile on the writing thread, when the writing is on a thread.
   */
  readAhead?(files: string[]): ReadAheadTaker;
  commit(): Promise<Committed>;
  abort(): Promise<void>;
}

const WORKER_FILE = join(PACKAGE_ROOT, 'cli/dist/write-worker.js');

export function openGeneratedWriter(dir: string): GeneratedWriter {
  if (compiledBuildHash() && existsSync(WORKER_FILE)) return threadWriter(dir);
  // A failed file is reported by commit, as on the writing thread, after the compile has finished.
  const writes = new DeferredWrites(dir);
  return {
    add: (path, text) => writes.add(path, text),
    commit: async () => writes.commit(),
    abort: async () => writes.abort(),
  };
}

/**
 * Files go to the thread in batches: a message costs the compiling thread about as much as a small
 * file, and a batch is still sent long before the compile ends, so the writes keep overlapping it.
 */
export const BATCH_FILES = 16;

/** Machines with fewer cores than this collect garbage on one thread while a writing thread runs. */
export const PARALLEL_COLLECTION_FROM = 4;

/**
 * On a machine of few cores, the compiling thread, the writing thread and the collector's helper
 * threads contend for the cores, and each young-generation collection of the compiling thread waits
 * for helpers that get no core: collected on its own thread, it does not wait. V8 reads this setting
 * at each collection, so it can be set while the process runs.
 */
function collectOnOneThread(): void {
  if (availableParallelism() < PARALLEL_COLLECTION_FROM) setFlagsFromString('--no-parallel-scavenge');
}

function threadWriter(dir: string): GeneratedWriter {
  collectOnOneThread();
  // [0] is set to 1 by abort, before its message: the thread then stages none of the files still queued for it.
  const aborting = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_FILE, { workerData: { dir, aborting } });
  let settled = false;
  let batch: [string, string][] = [];
  const flush = () => {
    if (batch.length) worker.postMessage(...packFiles(batch));
    batch = [];
  };
  const done = new Promise<WriterReply>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the writing thread stopped (exit code ${code}) before generated/ was written`)));
  });
  // A thread that fails before commit is reported by commit or abort, not as an unhandled rejection.
  done.catch(() => {});
  const finish = async (message: WriterMessage): Promise<WriterReply> => {
    if (settled) throw new Error('generated/ writer used after commit or abort');
    settled = true;
    if (message.type === 'commit') flush();
    batch = [];
    worker.postMessage(message);
    try {
      return await done;
    } finally {
      await worker.terminate();
    }
  };
  return {
    add(path, text) {
      if (settled) throw new Error('generated/ writer used after commit or abort');
      batch.push([path, flattened(text)]);
      if (batch.length >= BATCH_FILES) flush();
    },
    port() {
      if (settled) throw new Error('generated/ writer used after commit or abort');
      const { port1, port2 } = new MessageChannel();
      worker.postMessage({ type: 'port', port: port1 } satisfies WriterMessage, [port1]);
      return port2;
    },
    readAhead(files) {
      if (settled) throw new Error('generated/ writer used after commit or abort');
      const { port1, port2 } = new MessageChannel();
      const position = readAheadPosition();
      worker.postMessage({ type: 'prefetch', files, port: port1, position } satisfies WriterMessage, [port1]);
      return new ReadAheadTaker(port2, position);
    },
    async commit() {
      const reply = await finish({ type: 'commit' });
      if (reply.error !== undefined || !reply.staleness)
        throw new WriteFailure(reply.error ?? 'nothing was written', reply.changed === true);
      return reply.staleness;
    },
    async abort() {
      Atomics.store(aborting, 0, 1);
      const reply = await finish({ type: 'abort' });
      if (reply.error !== undefined) throw new WriteFailure(reply.error, false);
    },
  };
}
