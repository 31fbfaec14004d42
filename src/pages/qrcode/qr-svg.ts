import QRCode from 'qrcode';

/**
 * A QR code as SVG geometry, without markup strings: the side in modules (quiet zone included) and
 * one path of the dark modules, each row's runs as rectangles. The print page draws it; the tests
 * read the path back into the module matrix.
 */
export type QrLevel = 'L' | 'M';

/** The quiet zone around a code, in modules (the QR standard's 4). */
export const QUIET_ZONE = 4;

export interface QrGeometry {
  side: number;
  path: string;
}

export function qrGeometry(text: string, level: QrLevel): QrGeometry {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: level });
  const n = modules.size;
  const parts: string[] = [];
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!modules.get(y, x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && modules.get(y, x)) x++;
      parts.push(`M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h-${x - start}z`);
    }
  }
  return { side: n + 2 * QUIET_ZONE, path: parts.join('') };
}

/** The dark modules of a path made by qrGeometry, as rows of 0 and 1 (quiet zone excluded). */
export function modulesOfPath(path: string, side: number): string[] {
  const n = side - 2 * QUIET_ZONE;
  const rows = Array.from({ length: n }, () => Array<string>(n).fill('0'));
  for (const m of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    const x = Number(m[1]) - QUIET_ZONE;
    const y = Number(m[2]) - QUIET_ZONE;
    const row = rows[y];
    if (!row) continue;
    for (let i = 0; i < Number(m[3]); i++) row[x + i] = '1';
  }
  return rows.map((r) => r.join(''));
}
