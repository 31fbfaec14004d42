/** Small pieces the attack probes share: seeded menu buttons, a tiny PDF and an upload as a client. */
import type { ApiClient } from './server.js';

/** The first `n` buttons of a seeded page menu (ids page*10+1 …). */
export const buttons = (page: number, n = 3) => Array.from({ length: n }, (_, i) => page * 10 + i + 1);

/** The smallest PDF the upload call accepts. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Uploads `bytes` as the file `name`, as the client. */
export function upload(client: ApiClient, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), name);
  return client.request('POST', '/api/file/upload', { body: form });
}
