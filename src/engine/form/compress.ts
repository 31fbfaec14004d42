/**
 * Images over 1 MB are compressed in the browser before upload: drawn
 * on a canvas 600 px wide at quality 0.5; if that is still over 1 MB, smaller again until it fits.
 * The file keeps its type (the server checks the content against the extension).
 */

export const COMPRESS_THRESHOLD_BYTES = 1024 * 1024;
export const COMPRESS_WIDTH = 600;
export const COMPRESS_QUALITY = 0.5;
/** Below this width a picture is useless; give up shrinking and upload what we have. */
const MIN_WIDTH = 64;
const MAX_ATTEMPTS = 6;

export const needsCompression = (bytes: number, type: string) => bytes > COMPRESS_THRESHOLD_BYTES && /^image\/(jpeg|png|webp)$/.test(type);

export interface Size {
  width: number;
  height: number;
}

/** The first attempt: 600 px wide, aspect kept; a picture already narrower keeps its size. */
export function compressedSize(width: number, height: number, target = COMPRESS_WIDTH): Size {
  if (width <= target || width <= 0) return { width, height };
  return { width: target, height: Math.max(1, Math.round((height * target) / width)) };
}

/**
 * The next attempt after a result of `bytes` at `size`: bytes shrink roughly with the area, so scale
 * both sides by √(target / bytes), a little under. Undefined when it fits or cannot usefully shrink.
 */
export function nextSize(size: Size, bytes: number, target = COMPRESS_THRESHOLD_BYTES): Size | undefined {
  if (bytes <= target) return undefined;
  const factor = Math.sqrt(target / bytes) * 0.9;
  const width = Math.floor(size.width * factor);
  if (width < MIN_WIDTH) return undefined;
  return { width, height: Math.max(1, Math.round((size.height * width) / size.width)) };
}

function toBlob(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

/** The file to upload: the original when small enough (or not a compressible image), else a smaller copy. */
export async function compressImage(file: File): Promise<File> {
  if (!needsCompression(file.size, file.type)) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return file;
  }
  try {
    let size: Size | undefined = compressedSize(bitmap.width, bitmap.height);
    let best: Blob | null = null;
    for (let i = 0; size && i < MAX_ATTEMPTS; i++) {
      const canvas = document.createElement('canvas');
      canvas.width = size.width;
      canvas.height = size.height;
      const ctx = canvas.getContext('2d');
      if (!ctx) break;
      ctx.drawImage(bitmap, 0, 0, size.width, size.height);
      const blob = await toBlob(canvas, file.type, COMPRESS_QUALITY);
      if (!blob) break;
      best = blob;
      size = nextSize(size, blob.size);
    }
    if (!best || best.size >= file.size) return file;
    return new File([best], file.name, { type: file.type, lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}
