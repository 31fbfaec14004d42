import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

/** One file of a zip archive as its central directory declares it. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** Declared unpacked size; inflating never yields more than this. */
  size: number;
  /** Where its compressed bytes start in the archive. */
  dataOffset: number;
}

/** Why an archive is refused; the caller words it for the user. */
export class ZipRefused extends Error {
  constructor(
    readonly reason: 'invalid' | 'encrypted' | 'unpacked' | 'ratio' | 'lying',
    message: string,
  ) {
    super(message);
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;
/** Parts smaller than this are never refused for their compression ratio. */
const RATIO_FLOOR = 1024 * 1024;
/** Compressed bytes handed to the inflater at a time, so the actual ratio is known as it goes. */
const INPUT_SLICE = 4096;

/** What an archive may unpack to: in all, and per compressed byte past RATIO_FLOOR. */
export interface UnpackLimits {
  maxUnpacked: number;
  maxRatio: number;
}

const invalid = (why: string) => new ZipRefused('invalid', why);

/**
 * The entries of an in-memory zip, read from its central directory without inflating anything.
 * Refuses archives that are malformed, split, zip64, encrypted, use a method other than stored or
 * deflate, name a file twice, declare more than `maxUnpacked` bytes in all, or declare a part that
 * unpacks to more than `maxRatio` times its compressed size.
 */
export function zipEntries(buf: Buffer, limits: UnpackLimits): ZipEntry[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= 0 && i >= buf.length - 22 - MAX_COMMENT; i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw invalid('no end of central directory');
  const disk = buf.readUInt16LE(eocd + 4);
  const cdDisk = buf.readUInt16LE(eocd + 6);
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (disk !== 0 || cdDisk !== 0) throw invalid('split archive');
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw invalid('zip64');
  if (cdOffset + cdSize > eocd) throw invalid('central directory out of bounds');

  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let declared = 0;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || buf.readUInt32LE(p) !== CENTRAL) throw invalid('bad central directory entry');
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localOffset = buf.readUInt32LE(p + 42);
    const end = p + 46 + nameLen + extraLen + commentLen;
    if (end > eocd) throw invalid('central directory entry out of bounds');
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p = end;
    if (flags & 0x41) throw new ZipRefused('encrypted', 'encrypted entry');
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) throw invalid('zip64');
    if (method !== 0 && method !== 8) throw invalid(`compression method ${method}`);
    if (method === 0 && compressedSize !== size) throw invalid('stored entry with two sizes');
    if (names.has(name)) throw invalid('duplicate entry');
    names.add(name);
    declared += size;
    if (declared > limits.maxUnpacked) throw new ZipRefused('unpacked', 'declared sizes over the limit');

    if (localOffset + 30 > cdOffset || buf.readUInt32LE(localOffset) !== LOCAL) throw invalid('bad local header');
    const dataOffset = localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    if (dataOffset + compressedSize > cdOffset) throw invalid('entry data out of bounds');
    entries.push({ name, method, compressedSize, size, dataOffset });
  }
  for (const e of entries) {
    if (e.size > RATIO_FLOOR && e.size > limits.maxRatio * e.compressedSize) throw new ZipRefused('ratio', `${e.name} declares a bomb`);
  }
  return entries;
}

/** Bytes one archive may still inflate, and the ratio each part must keep. */
export interface InflateBudget {
  left: number;
  maxRatio: number;
}

/**
 * The unpacked bytes of one entry, inflated as they are read. Fails as soon as the entry yields more
 * than its declared size or than the budget has left, so a directory that lies costs no more than
 * what it declared; fails too when it yields less than declared. The last chunk is held back until
 * the entry is known to end at its declared size, so a reader never sees a whole entry that lied.
 */
export async function* inflateEntry(buf: Buffer, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<Buffer> {
  const data = buf.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  let produced = 0;
  let consumed = 0;
  let held: Buffer | undefined;
  const take = (chunk: Buffer) => {
    produced += chunk.length;
    budget.left -= chunk.length;
    if (produced > entry.size) throw new ZipRefused('lying', `${entry.name} inflates past its declared size`);
    if (budget.left < 0) throw new ZipRefused('unpacked', 'inflated bytes over the limit');
    if (produced > RATIO_FLOOR && produced > budget.maxRatio * consumed) throw new ZipRefused('ratio', `${entry.name} inflates as a bomb`);
    const previous = held;
    held = chunk;
    return previous;
  };
  if (entry.method === 0) {
    for (let i = 0; i < data.length; i += 64 * 1024) {
      consumed = Math.min(i + 64 * 1024, data.length);
      const ready = take(data.subarray(i, consumed));
      if (ready) yield ready;
    }
  } else {
    const slices = function* () {
      for (let i = 0; i < data.length; i += INPUT_SLICE) {
        consumed = Math.min(i + INPUT_SLICE, data.length);
        yield data.subarray(i, consumed);
      }
    };
    const input = Readable.from(slices(), { objectMode: false, highWaterMark: INPUT_SLICE });
    const inflater = createInflateRaw();
    try {
      input.pipe(inflater);
      for await (const chunk of inflater) {
        const ready = take(chunk as Buffer);
        if (ready) yield ready;
      }
    } catch (e) {
      if (e instanceof ZipRefused) throw e;
      throw invalid(`${entry.name}: ${(e as Error).message}`);
    } finally {
      input.destroy();
      inflater.destroy();
    }
  }
  if (produced !== entry.size) throw invalid(`${entry.name} inflates short of its declared size`);
  if (held) yield held;
}

/** A zip local file header for an uncompressed entry of `size` bytes (no checksum: the reader skips it). */
export function storedHeader(name: string, size: number): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const h = Buffer.alloc(30);
  h.writeUInt32LE(LOCAL, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(0x800, 6);
  h.writeUInt32LE(size, 18);
  h.writeUInt32LE(size, 22);
  h.writeUInt16LE(nameBytes.length, 26);
  return Buffer.concat([h, nameBytes]);
}

/** An end-of-central-directory record for an archive read front to back, which never consults it. */
export function endOfArchive(): Buffer {
  const e = Buffer.alloc(22);
  e.writeUInt32LE(EOCD, 0);
  return e;
}
