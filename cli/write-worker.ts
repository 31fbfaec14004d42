import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { setSha256 } from '../src/model/canonical.js';
import { sha } from './generate-cache.js';
import { DeferredWrites, WriteFailure } from './generated-dir.js';
import { unpackFiles, type WriterMessage, type WriterReply } from './generated-writer.js';
import { runReadAhead } from './prefetch.js';

/**
 * The thread that writes generated/ while the compile goes on: it receives each emitted file,
 * stages it, and commits or aborts on request. File creation costs the kernel more than the compile
 * costs per page on some disks, so doing it here overlaps the two. Files come from the main thread
 * and from any compiling thread given a port of its own: a commit waits until every such port has
 * said it sent its last file; a port closed before that fails the commit.
 */
const port = parentPort;
if (!port) throw new Error('write-worker runs only as a worker thread');

// The content hashes read ahead are those the compile would take: the same digest, natively.
setSha256(sha);

const reply = (message: WriterReply) => port.postMessage(message);
/** Set by commit or abort: a read-ahead still going stops. */
let finished = false;
const { dir, aborting } = workerData as { dir: string; aborting: Int32Array };
const writes = new DeferredWrites(dir);
/** Ports of compiling threads that have not sent their last file yet. */
const open = new Set<MessagePort>();
let commitWaiting = false;
let lostPort = false;

function commit(): void {
  try {
    if (lostPort) {
      writes.abort();
      reply({ type: 'done', error: 'a compiling thread stopped before it sent all its files', changed: false });
    } else reply({ type: 'done', staleness: writes.commit() });
  } catch (e) {
    reply({ type: 'done', error: e instanceof Error ? e.message : String(e), changed: e instanceof WriteFailure && e.changed });
  }
}

function received(message: WriterMessage): void {
  if (message.type === 'add') {
    // Once an abort is asked for, files still queued (from any thread) are dropped, not staged and removed.
    if (Atomics.load(aborting, 0) === 1) return;
    for (const [path, bytes] of unpackFiles(message)) writes.add(path, bytes);
    return;
  }
  if (message.type === 'port') {
    const from = message.port;
    open.add(from);
    from.on('message', (m: WriterMessage) => {
      if (m.type === 'add') received(m);
      else if (m.type === 'end') {
        open.delete(from);
        from.close();
        if (commitWaiting && open.size === 0) commit();
      }
    });
    from.on('close', () => {
      if (!open.delete(from)) return;
      lostPort = true;
      if (commitWaiting && open.size === 0) commit();
    });
    return;
  }
  if (message.type === 'prefetch') {
    runReadAhead(message, () => finished || Atomics.load(aborting, 0) === 1).catch(() => message.port.close());
    return;
  }
  finished = true;
  if (message.type === 'commit') {
    if (open.size === 0) commit();
    else commitWaiting = true;
    return;
  }
  try {
    writes.abort();
    reply({ type: 'done' });
  } catch (e) {
    reply({ type: 'done', error: e instanceof Error ? e.message : String(e), changed: false });
  }
}

port.on('message', received);
