// How fast this machine is right now, in three fixed workloads, so that benchmark figures taken on
// different days can be compared: on a shared host the same tree's figures move by a factor of two
// or more with the neighbours' load, and a figure means little without the machine's state beside it.
// Lower is faster. Each is the median of a few rounds on one thread.
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROUNDS = 5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** JavaScript: building, serialising, parsing and sorting 50,000 small records (allocation and the collector included). */
function javascriptRound() {
  const t = performance.now();
  const rows = [];
  for (let i = 0; i < 50_000; i++) rows.push({ id: i, name: `记录 ${i % 997}`, quantity: (i * 7919) % 1000, tags: [i % 3, i % 5] });
  const back = JSON.parse(JSON.stringify(rows));
  back.sort((a, b) => a.quantity - b.quantity || a.name.localeCompare(b.name));
  return performance.now() - t;
}

/**
 * Files: creating, writing and statting 500 small files, each round under new names (what a
 * generate or a database asks of it). In memory (/dev/shm) where there is one: a disk's own moods (an
 * ext4 without a journal is slow to create files for a few seconds after many deletes) are not the
 * machine's speed.
 */
function filesRound(dir, round) {
  const t = performance.now();
  const text = Buffer.from('x'.repeat(4096));
  for (let i = 0; i < 500; i++) {
    const file = join(dir, `r${round}-f${i}`);
    const fd = openSync(file, 'w');
    writeSync(fd, text);
    closeSync(fd);
    statSync(file);
  }
  return performance.now() - t;
}

/** Fresh memory: 64 MB taken from the kernel and touched page by page (what a browser's every picture costs). */
function memoryRound() {
  const t = performance.now();
  const buffer = Buffer.allocUnsafeSlow(64 * 1024 * 1024);
  for (let i = 0; i < buffer.length; i += 4096) buffer[i] = 1;
  return performance.now() - t;
}

/** The three gauges in milliseconds. */
export function machineGauge() {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'wastegen-gauge-'));
  try {
    const js = [];
    const files = [];
    const memory = [];
    for (let i = 0; i < ROUNDS; i++) {
      js.push(javascriptRound());
      files.push(filesRound(dir, i));
      memory.push(memoryRound());
    }
    return { javascript: median(js), files: median(files), memory: median(memory) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One line for a benchmark's log. */
export function gaugeLine() {
  const g = machineGauge();
  return `machine gauge: JavaScript ${g.javascript.toFixed(0)} ms, files ${g.files.toFixed(0)} ms, fresh memory ${g.memory.toFixed(0)} ms (fixed workloads, lower is faster: compare figures only between runs whose gauges agree)`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) console.log(gaugeLine());
