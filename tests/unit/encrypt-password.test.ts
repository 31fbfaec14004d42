import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptPassword } from '../../src/session/encrypt-password';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

/** Exactly how the reference server reads the password (server/auth.ts decryptPassword). */
function decrypt(base64: string): string {
  return privateDecrypt(
    { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(base64, 'base64'),
  ).toString('utf8');
}

describe('encryptPassword (RSA-OAEP SHA-256, base64)', () => {
  it('uses WebCrypto when it is there', async () => {
    const cipher = await encryptPassword(publicKey, 'Waste@2026', globalThis.crypto.subtle);
    expect(cipher).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(cipher, 'base64')).toHaveLength(256);
    expect(decrypt(cipher)).toBe('Waste@2026');
  });

  it('falls back to node-forge without WebCrypto (plain http on a LAN host)', async () => {
    const cipher = await encryptPassword(publicKey, '密码Waste@2026', null);
    expect(decrypt(cipher)).toBe('密码Waste@2026');
  });

  it('randomises the padding, so the same password never gives the same cipher text', async () => {
    const a = await encryptPassword(publicKey, 'same', null);
    const b = await encryptPassword(publicKey, 'same', null);
    expect(a).not.toBe(b);
  });
});
