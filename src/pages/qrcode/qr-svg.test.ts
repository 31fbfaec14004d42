import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { modulesOfPath, QUIET_ZONE, qrGeometry } from './qr-svg';

const matrix = (text: string, level: 'L' | 'M') => {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: level });
  return Array.from({ length: modules.size }, (_, y) =>
    Array.from({ length: modules.size }, (_, x) => (modules.get(y, x) ? '1' : '0')).join(''),
  );
};

describe('QR label geometry', () => {
  const text = '20261123A1B2C3D4E5_产废企业部_2026-11-23 12:00:00';

  it('draws exactly the dark modules of the code, inside a 4-module quiet zone', () => {
    for (const level of ['L', 'M'] as const) {
      const g = qrGeometry(text, level);
      const m = matrix(text, level);
      expect(g.side).toBe(m.length + 2 * QUIET_ZONE);
      expect(modulesOfPath(g.path, g.side)).toEqual(m);
    }
  });

  it('needs a larger symbol for level M than for L', () => {
    expect(qrGeometry(text, 'M').side).toBeGreaterThan(qrGeometry(text, 'L').side);
  });

  it('tells different texts apart', () => {
    const a = qrGeometry(text, 'L');
    expect(modulesOfPath(a.path, a.side)).not.toEqual(matrix(`${text}x`, 'L'));
  });
});
