/**
 * Blob downloads through the request layer: the file is fetched with the Authorization header, a JSON error body is
 * shown as an error instead of being saved as a file, an empty file warns 文件下载失败, and the file is
 * saved under the server's Content-Disposition name.
 */
import type { Notifier } from '../notify/notifier';
import { FALLBACK_MESSAGE, type QueryParams, type RequestClient, type RequestOptions } from './client';

export const DOWNLOAD_EMPTY_MESSAGE = '文件下载失败';
/** Error answers are a few hundred bytes; a real file of `{status,message}` this small is not plausible. */
export const ERROR_BODY_MAX_BYTES = 4096;

/**
 * The file name of a Content-Disposition header: the RFC 5987 `filename*=UTF-8''…` form when present
 * (it carries Chinese names), else the plain `filename="…"` / `filename=…`.
 */
export function filenameFromDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([^';]*)'[^']*'([^;]*)/i.exec(header);
  if (extended) {
    const [, charset = '', encoded = ''] = extended;
    const value = encoded.trim().replace(/^"(.*)"$/, '$1');
    try {
      if (/^utf-?8$/i.test(charset.trim()) || !charset.trim()) return cleanName(decodeURIComponent(value));
      // ISO-8859-1 percent-escapes: one byte per character.
      return cleanName(value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))));
    } catch {
      // Malformed escapes: fall back to the plain parameter.
    }
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted?.[1] !== undefined) return cleanName(quoted[1].replace(/\\(.)/g, '$1'));
  const bare = /(?:^|;)\s*filename\s*=\s*([^;]+)/i.exec(header);
  return bare?.[1] ? cleanName(bare[1].trim()) : undefined;
}

/** No directories and no control characters in a name offered to the browser's save. */
function cleanName(name: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base || undefined;
}

/** The message of a `{status, message}` error answer, or undefined when the text is not one. */
export function errorMessageOf(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { status, code, message } = parsed as { status?: unknown; code?: unknown; message?: unknown };
  const flag = status ?? code;
  if (flag === undefined || flag === 200 || flag === '200') return undefined;
  return typeof message === 'string' && message ? message : FALLBACK_MESSAGE;
}

/** Saves a blob through a temporary object URL and link (the browser's download manager). */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** A download under way, for the progress dialog: bytes read so far and of how many (null: not told). */
export interface DownloadProgress {
  fileName: string;
  loaded: number;
  total: number | null;
  /** Stops reading the file: nothing is saved. */
  cancel: () => void;
}

export interface DownloadDeps {
  client: RequestClient;
  notifier: Pick<Notifier, 'error' | 'warning'>;
  save: (blob: Blob, fileName: string) => void;
  errorSeconds?: number;
  /** Told of each chunk of a file as it arrives, and null when the download is over. */
  onProgress?: (progress: DownloadProgress | null) => void;
}

/** The Content-Length of an answer, or null when it is absent or not a byte count. */
function lengthOf(response: Response): number | null {
  const v = response.headers.get('content-length');
  const n = v === null ? Number.NaN : Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/**
 * The answer's body as a blob, read chunk by chunk so `onProgress` can show how far it is; null when
 * the user cancelled.
 */
async function readBody(
  response: Response,
  fileName: string,
  onProgress: DownloadDeps['onProgress'],
  controller: AbortController,
): Promise<Blob | null> {
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || !onProgress) return response.blob();
  const reader = response.body.getReader();
  const total = lengthOf(response);
  const chunks: BlobPart[] = [];
  let loaded = 0;
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    controller.abort();
    void reader.cancel().catch(() => undefined);
  };
  onProgress({ fileName, loaded, total, cancel });
  for (;;) {
    const { done, value } = await reader.read().catch((e: unknown) => {
      if (cancelled) return { done: true, value: undefined };
      throw e;
    });
    if (cancelled) return null;
    if (done || !value) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    loaded += value.byteLength;
    onProgress({ fileName, loaded, total, cancel });
  }
  return new Blob(chunks, { type });
}

/** Resolves true when the file was handed to the browser, false when the user was told why not. */
export type Download = (url: string, params?: QueryParams, fileName?: string, options?: RequestOptions) => Promise<boolean>;

function lastSegment(url: string): string | undefined {
  const path = url.split(/[?#]/)[0] ?? '';
  const seg = path.split('/').pop();
  if (!seg) return undefined;
  try {
    return cleanName(decodeURIComponent(seg));
  } catch {
    return cleanName(seg);
  }
}

export function createDownload({ client, notifier, save, errorSeconds, onProgress }: DownloadDeps): Download {
  return async (url, params, fileName, options = {}) => {
    let response: Response;
    let blob: Blob | null;
    const controller = new AbortController();
    options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    try {
      response = await client.request<Response>(url, {
        ...options,
        method: options.method ?? 'GET',
        params,
        responseType: 'response',
        signal: controller.signal,
      });
      const shown = filenameFromDisposition(response.headers.get('content-disposition')) ?? fileName ?? lastSegment(url) ?? 'download';
      blob = await readBody(response, shown, onProgress, controller);
    } catch {
      // Failed answers (status, timeout, network) were already reported by the request layer.
      return false;
    } finally {
      onProgress?.(null);
    }
    // Cancelled by the user in the progress dialog: nothing to save or say.
    if (!blob) return false;
    const type = response.headers.get('content-type') ?? '';
    const disposition = response.headers.get('content-disposition');
    const attachment = /^\s*attachment/i.test(disposition ?? '');
    if ((type.includes('json') && !attachment) || (blob.size > 0 && blob.size <= ERROR_BODY_MAX_BYTES)) {
      const text = await blob.text().catch(() => '');
      const message = errorMessageOf(text) ?? (type.includes('json') && !attachment ? FALLBACK_MESSAGE : undefined);
      if (message) {
        if (!options.silent) notifier.error(message, errorSeconds);
        return false;
      }
    }
    if (blob.size === 0) {
      notifier.warning(DOWNLOAD_EMPTY_MESSAGE);
      return false;
    }
    save(blob, filenameFromDisposition(disposition) ?? fileName ?? lastSegment(url) ?? 'download');
    return true;
  };
}
