/**
 * Passwords travel RSA-OAEP (SHA-256) encrypted with the server's public key, base64.
 *
 * WebCrypto only exists in secure contexts; a back office opened over plain http on a LAN host
 * has no crypto.subtle, so node-forge takes over there. It is loaded on demand to keep it out of
 * the login page's initial bundle.
 */
function pemBody(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '');
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * @param publicKeyPem SPKI PEM (`-----BEGIN PUBLIC KEY-----`) as served by GET /api/auth/publicKey
 * @param subtle WebCrypto to use; defaults to the environment's, and null forces the node-forge path
 */
export async function encryptPassword(
  publicKeyPem: string,
  plain: string,
  subtle: SubtleCrypto | null | undefined = globalThis.crypto?.subtle,
): Promise<string> {
  if (subtle) {
    const key = await subtle.importKey('spki', pemBody(publicKeyPem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    const cipher = await subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain));
    return toBase64(new Uint8Array(cipher));
  }
  const forge = (await import('node-forge')).default;
  const key = forge.pki.publicKeyFromPem(publicKeyPem);
  const cipher = key.encrypt(forge.util.encodeUtf8(plain), 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  return forge.util.encode64(cipher);
}
