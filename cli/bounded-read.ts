import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/**
 * Reading a file of definitions/ without trusting it: only a regular file is read (a FIFO, a device
 * or a socket could block the run or never end), its size is judged from the stat of the open file
 * before a byte is read, and no more than that bound is ever read, however the file grows meanwhile.
 */

/**
 * The most bytes a definition can take: DEFINITION_MAX_CHARS (8 Mi, counted as JavaScript counts
 * a text's length, in UTF-16 units) times 3, the most UTF-8 bytes one such unit decodes from (a
 * 4-byte sequence gives two units, an invalid byte at least one). A larger file holds more than
 * the limit whatever its bytes; a smaller one is read and its characters counted exactly
 * (parseJsonFile). `tests/unit/cli-definition-refusals.test.ts` holds the two constants together.
 */
export const DEFINITION_MAX_BYTES = 3 * 8 * 1024 * 1024;

/** Why a file is not read: not a regular file (`E_JSON`), or larger than a definition can be (`E_TOO_LARGE`). */
export class UnreadableFile extends Error {
  constructor(
    readonly code: 'E_JSON' | 'E_TOO_LARGE',
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'UnreadableFile';
  }
}

/** What a stat says the file is, in words, when it is not a regular file. */
export function notRegular(st: Pick<Stats, 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket' | 'isDirectory'>): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

export const notRegularFile = (what: string) =>
  new UnreadableFile(
    'E_JSON',
    `the file is ${what}, not a regular file; nothing was read from it`,
    'a definition is a plain JSON file: remove it or put the file itself in its place',
  );

export const tooLarge = (bytes: number, max = DEFINITION_MAX_BYTES) =>
  new UnreadableFile(
    'E_TOO_LARGE',
    `the file is ${bytes} bytes, more than the ${max} (${max / 1024 / 1024} MiB) that 8 Mi characters can take; it was not read`,
    'no server accepts a definition this large: check how the file was made, or split the view',
  );

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

/**
 * The bytes of the regular file at `path` (not followed if it is a symbolic link itself), at most
 * `max` of them; throws UnreadableFile for anything else. Opened without blocking, so a FIFO is
 * refused at once rather than waited on; any other failure to open or read is thrown as it is.
 */
export function readBoundedFile(path: string, max = DEFINITION_MAX_BYTES): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw notRegularFile('a symbolic link put in place of the file it was listed as');
    // What opening a socket answers.
    if (code === 'ENXIO') throw notRegularFile('a socket or a device');
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegularFile(notRegular(st));
    if (st.size > max) throw tooLarge(st.size, max);
    // One byte more than the stat says, to see a file that grew since; never more than max + 1.
    let buffer = Buffer.allocUnsafe(st.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > max) throw tooLarge(length, max);
        const grown = Buffer.allocUnsafe(Math.min(max + 1, length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > max) throw tooLarge(length, max);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
