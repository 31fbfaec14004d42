import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { type CompileShare, takeShare } from './compile-threads.js';
import { packFiles, type WriterMessage } from './generated-writer.js';

/**
 * A second compiling thread: it takes definitions from the shared counter, as the main thread
 * does, sends their files to the writing thread on its own port, and hands the main thread its
 * definitions' outcomes.
 */
const parent = parentPort;
if (!parent) throw new Error('compile-worker runs only as a worker thread');

const share = workerData as CompileShare & { writer: MessagePort };
const outcomes = takeShare(share, (files) => share.writer.postMessage(...packFiles(files)));
share.writer.postMessage({ type: 'end' } satisfies WriterMessage);
parent.postMessage([...outcomes]);
