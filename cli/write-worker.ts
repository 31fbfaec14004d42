import { parentPort, workerData } from 'node:worker_threads';
import { StagedWrites, WriteFailure } from './generated-dir.js';
import type { WriterMessage, WriterReply } from './generated-writer.js';

/**
 * The thread that writes generated/ while the main thread compiles: it receives each emitted file,
 * stages it, and commits or aborts on request. File creation costs the kernel more than the compile
 * costs per page on some disks, so doing it here overlaps the two.
 */
const port = parentPort;
if (!port) throw new Error('write-worker runs only as a worker thread');

const reply = (message: WriterReply) => port.postMessage(message);
const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));

let writes: StagedWrites | undefined;
let failure: string | undefined;
let changed = false;
try {
  writes = new StagedWrites((workerData as { dir: string }).dir);
} catch (e) {
  failure = describe(e);
}

port.on('message', (message: WriterMessage) => {
  if (message.type === 'add') {
    if (failure !== undefined || !writes) return;
    try {
      writes.add(message.path, message.text);
    } catch (e) {
      failure = describe(e);
    }
    return;
  }
  if (message.type === 'commit' && failure === undefined && writes) {
    try {
      reply({ type: 'done', staleness: writes.commit() });
      return;
    } catch (e) {
      failure = describe(e);
      changed = e instanceof WriteFailure && e.changed;
    }
  }
  try {
    writes?.abort();
  } catch (e) {
    failure ??= describe(e);
  }
  reply({ type: 'done', error: failure, changed });
});
