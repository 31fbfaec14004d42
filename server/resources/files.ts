import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { files } from '../../src/contract/files.js';
import { OPEN_UPLOAD_PERMISSIONS } from '../../src/shared/open-files.js';
import { mayReadFile } from '../access/files.js';
import type { App } from '../app.js';
import { currentUser, hasPermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { ApiError, badRequest, forbidden, notFound } from '../errors.js';
import { contentDisposition, filesRoot } from '../lib/files.js';
import { namedTable } from '../lib/named-table.js';
import { registerResource, writerOf } from './register.js';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Allowed extensions, their content type and the magic bytes the content must start with (null: any byte). */
const TYPES: Record<string, { type: string; magic: (number | null)[] }> = namedTable({
  doc: { type: 'application/msword', magic: OLE },
  xls: { type: 'application/vnd.ms-excel', magic: OLE },
  docx: { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', magic: ZIP },
  xlsx: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', magic: ZIP },
  pdf: { type: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  png: { type: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  jpg: { type: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  jpeg: { type: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  // RIFF, the chunk size, WEBP: big-screen header backgrounds may be webp.
  webp: { type: 'image/webp', magic: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50] },
});

/**
 * Images a big screen draws or a bulletin shows: served without a session to anyone holding the stored path
 * (96 random bits), and only when uploaded with `open` by an account that may publish them
 * (OPEN_UPLOAD_PERMISSIONS); other uploads need a session to be read.
 */
const OPEN_IMAGE_PATH = /^\d{4}\/\d{2}\/[0-9a-f]{24}\.(png|jpg|jpeg|webp)$/;

// Stored paths are generated here (yyyy/mm/hex.ext); anything else is refused before touching the disk.
const STORED_PATH = /^\d{4}\/\d{2}\/[0-9a-f]{24}\.(doc|docx|xls|xlsx|pdf|png|jpg|jpeg|webp)$/;

/** Display name from a client file name: last path segment, no control characters, at most 200 characters. */
function cleanName(filename: string, ext: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return base.slice(-200) || `file.${ext}`;
}

async function head(path: string, n: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

const matches = (buf: Buffer, magic: (number | null)[]) => buf.length >= magic.length && magic.every((b, i) => b === null || buf[i] === b);

interface Received {
  tmp: string;
  ext: string;
  fileName: string;
  size: number;
}

/**
 * Streams one file part to a temp file, so that a file cut off by the size limit (or of the wrong
 * kind) never appears among the stored files; the caller renames it into place when all is well.
 */
async function receive(part: MultipartFile, root: string): Promise<Received> {
  const ext = extname(part.filename).slice(1).toLowerCase();
  const spec = TYPES[ext];
  if (!spec) {
    part.file.resume();
    throw badRequest('UPLOAD_TYPE_NOT_ALLOWED');
  }
  const tmpDir = join(root, '.tmp');
  await mkdir(tmpDir, { recursive: true });
  const tmp = join(tmpDir, randomBytes(16).toString('hex'));
  try {
    await pipeline(part.file, createWriteStream(tmp, { flags: 'wx' }));
    if (part.file.truncated) throw badRequest('FILE_TOO_LARGE');
    if (!matches(await head(tmp, 12), spec.magic)) throw badRequest('UPLOAD_TYPE_NOT_ALLOWED');
    const { size } = await stat(tmp);
    return { tmp, ext, fileName: cleanName(part.filename, ext), size };
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw (e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' ? badRequest('FILE_TOO_LARGE') : e;
  }
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const root = filesRoot(ctx);

  /** A stored file its signed-in reader may read (see mayReadFile); anything else answers as missing. */
  async function readableFile(req: FastifyRequest, source: string | undefined) {
    const found = await storedFile(source);
    if (!(await mayReadFile(ctx, currentUser(req), found.row))) throw notFound('FILE_NOT_FOUND');
    return found;
  }

  async function storedFile(source: string | undefined) {
    if (!source || !STORED_PATH.test(source)) throw notFound('FILE_NOT_FOUND');
    const abs = resolve(root, source);
    if (!abs.startsWith(root + sep)) throw notFound('FILE_NOT_FOUND');
    const row = await ctx.db.selectFrom('file_record').selectAll().where('file_path', '=', source).executeTakeFirst();
    if (!row) throw notFound('FILE_NOT_FOUND');
    const info = await stat(abs).catch(() => null);
    if (!info?.isFile()) throw notFound('FILE_NOT_FOUND');
    return { row, abs, size: info.size };
  }

  // A stored file to its signed-in reader: the browser may keep it a day, for that user only.
  const sendPrivate = (reply: FastifyReply, type: string, size: number, disposition: string, abs: string) =>
    reply
      .header('content-type', type)
      .header('content-length', size)
      .header('content-disposition', disposition)
      .header('cache-control', 'private, max-age=86400')
      .send(createReadStream(abs));

  registerResource(app, files, {
    upload: async (req) => {
      if (!req.isMultipart()) throw badRequest('MULTIPART_REQUIRED');
      let received: Received | null = null;
      let failure: ApiError | null = null;
      let columnName = '';
      let open = false;
      try {
        // Every part is read to the end, even after a failure, so the request body is fully consumed.
        for await (const part of req.parts()) {
          if (part.type === 'field') {
            if (part.fieldname === 'columnName') columnName = String(part.value ?? '').slice(0, 100);
            if (part.fieldname === 'open') open = String(part.value) === '1';
            continue;
          }
          // An empty file input still sends a part, with no file name.
          if (failure || received || !part.filename) {
            if (received && part.filename && !failure) failure = badRequest('TOO_MANY_FILES');
            part.file.resume();
            continue;
          }
          try {
            received = await receive(part, root);
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            failure = e;
          }
        }
        if (!failure && !received) failure = badRequest('UPLOAD_FILE_REQUIRED');
        // A file everyone may read is public content: only those who publish it (big screens and bulletins,
        // accounts of 全部) may upload one.
        const user = currentUser(req);
        if (!failure && open && !(user.dataScope.all && OPEN_UPLOAD_PERMISSIONS.some((p) => hasPermission(user.roles, p))))
          failure = forbidden('OPEN_UPLOAD_DENIED');
      } catch (e) {
        if ((e as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') {
          if (received) await unlink(received.tmp).catch(() => {});
          throw e;
        }
        failure = badRequest('FILE_TOO_LARGE');
      }
      if (failure || !received) {
        if (received) await unlink(received.tmp).catch(() => {});
        throw failure ?? badRequest('UPLOAD_FILE_REQUIRED');
      }

      const now = new Date();
      const dir = `${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}`;
      const filePath = `${dir}/${randomBytes(12).toString('hex')}.${received.ext}`;
      const abs = join(root, filePath);
      try {
        await mkdir(join(root, dir), { recursive: true });
        await rename(received.tmp, abs);
        await writerOf(req)
          .insertInto('file_record')
          .values({
            file_path: filePath,
            file_name: received.fileName,
            column_name: columnName || null,
            content_type: TYPES[received.ext]!.type,
            size: received.size,
            user_id: req.user?.id ?? null,
            company_id: req.user?.companyId ?? null,
            open: open && OPEN_IMAGE_PATH.test(filePath),
          })
          .execute();
      } catch (e) {
        await unlink(received.tmp).catch(() => {});
        await unlink(abs).catch(() => {});
        throw e;
      }
      return { status: 200 as const, filePath, fileName: received.fileName, columnName };
    },

    preview: async (req, reply) => {
      const { row, abs, size } = await readableFile(req, req.query.source);
      return sendPrivate(reply, row.content_type, size, contentDisposition('inline', row.file_name, extname(row.file_path).slice(1)), abs);
    },

    // A big screen's background and header images, for viewers without a session (share links, wall displays).
    openImage: async (req, reply) => {
      const source = req.query.source;
      if (!source || !OPEN_IMAGE_PATH.test(source)) throw notFound('FILE_NOT_FOUND');
      const { row, abs, size } = await storedFile(source);
      if (!row.open) throw notFound('FILE_NOT_FOUND');
      return reply
        .header('content-type', row.content_type)
        .header('content-length', size)
        .header('cache-control', 'public, max-age=86400, immutable')
        .send(createReadStream(abs));
    },

    download: async (req, reply) => {
      const { row, abs, size } = await readableFile(req, req.query.source);
      const wanted = req.query.fileName?.trim();
      const ext = extname(row.file_path).slice(1);
      const name = wanted ? cleanName(wanted, ext) : row.file_name;
      return sendPrivate(reply, row.content_type, size, contentDisposition('attachment', name, ext), abs);
    },
  });
}
