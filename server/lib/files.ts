import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AppContext } from '../context.js';

/** Where stored files live: FILES_DIR, or a folder of the system's temporary directory. */
export function filesRoot(ctx: AppContext): string {
  return resolve(ctx.config.filesDir || join(tmpdir(), 'wastegen-files'));
}

/** `inline` or `attachment` with an ASCII fallback and the UTF-8 name (RFC 5987/6266) for Chinese names. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
