import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/**
 * Loading a CommonJS file of cli/dist with V8's code cache: the bytecode of its top level and of every
 * function the last run compiled is kept beside it, so a run parses and compiles only what it had not
 * run before (about 50 ms of a generate of 1,000 definitions). The cache is named after the build's
 * hash, so a cache of another build is never given to this one (V8 itself checks only the source's
 * length, its own version and its flags); a rebuild removes it. A cache that V8 refuses, that is
 * damaged or that cannot be read costs nothing but the compile: the file runs as it is. One that
 * cannot be written (a read-only install) is not written.
 */

/** What became of the code cache in one load. */
export type CodeCacheState = 'used' | 'absent' | 'rejected';

export interface CachedModule<T> {
  exports: T;
  state: CodeCacheState;
  /**
   * Writes the cache when this load had none to use, once the work it wanted covered has run (the
   * functions compiled by then are in it). Returns whether it was written.
   */
  save(): boolean;
}

/** The cache file of `file` for the build `hash`. */
export const codeCacheFile = (file: string, hash: string) => `${file}.${hash.slice(0, 16)}.v8-cache`;

/** Loads `file` (CommonJS) with the code cache of build `hash`. */
export function loadWithCodeCache<T>(file: string, hash: string): CachedModule<T> {
  const cacheFile = codeCacheFile(file, hash);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {}
  const script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const state: CodeCacheState = !cachedData ? 'absent' : script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    state,
    save() {
      if (state === 'used') return false;
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
        return true;
      } catch {
        rmSync(tmp, { force: true });
        return false;
      }
    },
  };
}
