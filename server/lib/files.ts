import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AppContext } from '../context.js';

/** Where stored files live: FILES_DIR, or a folder of the system's temporary directory. */
export function filesRoot(ctx: AppContext): string {
  return resolve(ctx.config.filesDir || join(tmpdir(), 'wastegen-files'));
}

/**
 * The name a file is saved under ends with the extension of what it holds: a name asked for with
 * another one (`通知.hta`, `x.html`) gets the stored extension added, so a link cannot save uploaded
 * bytes as a program or a page.
 */
export function savedName(name: string, ext: string): string {
  const wanted = `.${ext.toLowerCase()}`;
  return name.toLowerCase().endsWith(wanted) ? name : `${name}${wanted}`;
}

/**
 * `inline` or `attachment` with an ASCII fallback and the UTF-8 name (RFC 5987/6266) for Chinese names;
 * the name always ends with `ext`, the extension of the bytes sent (see savedName).
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string, ext: string): string {
  const name = savedName(fileName, ext);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
