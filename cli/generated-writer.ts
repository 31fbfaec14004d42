import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DeferredWrites, type Staleness, WriteFailure } from './generated-dir.js';
import { compiledBuildHash, PACKAGE_ROOT } from './paths.js';

/** Messages to the writing thread. */
export type WriterMessage = { type: 'add'; path: string; text: string } | { type: 'commit' } | { type: 'abort' };
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

function threadWriter(dir: string): GeneratedWriter {
  const worker = new Worker(WORKER_FILE, { workerData: { dir } });
  let settled = false;
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
      worker.postMessage({ type: 'add', path, text } satisfies WriterMessage);
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
