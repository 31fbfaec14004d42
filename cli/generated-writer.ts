import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { DeferredWrites, type Staleness, WriteFailure } from './generated-dir.js';
import { compiledBuildHash, PACKAGE_ROOT } from './paths.js';

/** Messages to the writing thread. */
export type WriterMessage =
  | { type: 'add'; files: [path: string, text: string][] }
  | { type: 'commit' }
  | { type: 'abort' }
  /** A port another thread sends its files on ('add'), then 'end' after the last. */
  | { type: 'port'; port: MessagePort }
  | { type: 'end' };
/** Its one answer to commit or abort: what changed, or why nothing did. */
export type WriterReply = { type: 'done'; staleness?: Staleness; error?: string; changed?: boolean };

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
  commit(): Promise<Staleness>;
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

function threadWriter(dir: string): GeneratedWriter {
  const worker = new Worker(WORKER_FILE, { workerData: { dir } });
  let settled = false;
  let batch: [string, string][] = [];
  const flush = () => {
    if (batch.length) worker.postMessage({ type: 'add', files: batch } satisfies WriterMessage);
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
      batch.push([path, text]);
      if (batch.length >= BATCH_FILES) flush();
    },
    port() {
      if (settled) throw new Error('generated/ writer used after commit or abort');
      const { port1, port2 } = new MessageChannel();
      worker.postMessage({ type: 'port', port: port1 } satisfies WriterMessage, [port1]);
      return port2;
    },
    async commit() {
      const reply = await finish({ type: 'commit' });
      if (reply.error !== undefined || !reply.staleness)
        throw new WriteFailure(reply.error ?? 'nothing was written', reply.changed === true);
      return reply.staleness;
    },
    async abort() {
      const reply = await finish({ type: 'abort' });
      if (reply.error !== undefined) throw new WriteFailure(reply.error, false);
    },
  };
}
