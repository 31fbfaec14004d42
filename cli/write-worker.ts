import { parentPort, workerData } from 'node:worker_threads';
import { DeferredWrites, WriteFailure } from './generated-dir.js';
import type { WriterMessage, WriterReply } from './generated-writer.js';

/**
 * The thread that writes generated/ while the main thread compiles: it receives each emitted file,
 * stages it, and commits or aborts on request. File creation costs the kernel more than the compile
 * costs per page on some disks, so doing it here overlaps the two.
 */
const port = parentPort;
if (!port) throw new Error('write-worker runs only as a worker thread');

const reply = (message: WriterReply) => port.postMessage(message);
const writes = new DeferredWrites((workerData as { dir: string }).dir);

port.on('message', (message: WriterMessage) => {
  if (message.type === 'add') return writes.add(message.path, message.text);
  try {
    if (message.type === 'commit') reply({ type: 'done', staleness: writes.commit() });
    else {
      writes.abort();
      reply({ type: 'done' });
    }
  } catch (e) {
    reply({ type: 'done', error: e instanceof Error ? e.message : String(e), changed: e instanceof WriteFailure && e.changed });
  }
});
