/**
 * Stored files: the upload, and the preview and download of a stored file by its path (opened by the
 * browser itself, so the token may travel in the query), and a big screen's open images.
 */
import { z } from 'zod';
import { type CallSpec, call, FILE, MULTIPART, resource } from './define.js';

/** The stored path of a file, and the name a download is saved under. */
const sourceQuery = z.object({
  source: z.string().max(255).optional(),
  fileName: z.string().max(255).optional(),
  token: z.string().optional(),
});

/** A stored file answered by its path; the browser opens the address itself, so `how` says how it is let in. */
const storedFile = <const P extends CallSpec['path'], const S extends string, const W extends 'public' | 'session'>(
  path: P,
  summary: S,
  who: W,
  how: { tokenInQuery: true } | { unsigned: true },
) =>
  call('GET', path, summary, who, {
    ...how,
    query: sourceQuery,
    answer: FILE,
    errors: ['FILE_NOT_FOUND'],
    example: { query: { source: '2026/01/none.png' }, refuses: 'FILE_NOT_FOUND' },
  });

export const files = resource('files', '文件', {
  upload: call('POST', '/api/file/upload', '上传文件（字段 file，可带 columnName；open=1 上传公开图片）', 'session', {
    body: MULTIPART,
    answer: z.object({ status: z.literal(200), filePath: z.string(), fileName: z.string(), columnName: z.string() }),
    errors: ['UPLOAD_TYPE_NOT_ALLOWED', 'UPLOAD_FILE_REQUIRED', 'OPEN_UPLOAD_DENIED'],
  }),
  preview: storedFile('/api/file/preview', '预览文件', 'session', { tokenInQuery: true }),
  openImage: storedFile('/api/open/image', '大屏的公开图片', 'public', { unsigned: true }),
  download: storedFile('/api/file/download', '下载文件', 'session', { tokenInQuery: true }),
});
