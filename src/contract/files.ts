/**
 * Stored files: the upload, and the preview and download of a stored file by its path (opened by the
 * browser itself, so the token may travel in the query), and a big screen's open images.
 */
import { z } from 'zod';
import { call, FILE, MULTIPART, resource } from './define.js';

/** The stored path of a file, and the name a download is saved under. */
const sourceQuery = z.object({
  source: z.string().max(255).optional(),
  fileName: z.string().max(255).optional(),
  token: z.string().optional(),
});

export const files = resource({
  name: 'files',
  title: '文件',
  calls: {
    upload: call({
      method: 'POST',
      path: '/api/file/upload',
      summary: '上传文件（字段 file，可带 columnName；open=1 上传公开图片）',
      access: 'session',
      body: MULTIPART,
      answer: z.object({ status: z.literal(200), filePath: z.string(), fileName: z.string(), columnName: z.string() }),
      errors: ['UPLOAD_TYPE_NOT_ALLOWED', 'UPLOAD_FILE_REQUIRED', 'OPEN_UPLOAD_DENIED'],
    }),
    preview: call({
      method: 'GET',
      path: '/api/file/preview',
      summary: '预览文件',
      access: 'session',
      tokenInQuery: true,
      query: sourceQuery,
      answer: FILE,
      errors: ['FILE_NOT_FOUND'],
      example: { query: { source: '2026/01/none.png' }, refuses: 'FILE_NOT_FOUND' },
    }),
    openImage: call({
      method: 'GET',
      path: '/api/open/image',
      summary: '大屏的公开图片',
      access: 'public',
      unsigned: true,
      query: sourceQuery,
      answer: FILE,
      errors: ['FILE_NOT_FOUND'],
      example: { query: { source: '2026/01/none.png' }, refuses: 'FILE_NOT_FOUND' },
    }),
    download: call({
      method: 'GET',
      path: '/api/file/download',
      summary: '下载文件',
      access: 'session',
      tokenInQuery: true,
      query: sourceQuery,
      answer: FILE,
      errors: ['FILE_NOT_FOUND'],
      example: { query: { source: '2026/01/none.png' }, refuses: 'FILE_NOT_FOUND' },
    }),
  },
});
