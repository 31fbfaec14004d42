import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from './db/schema.js';

export interface ServerSecrets {
  jwtSecret: Uint8Array;
  /** Signs big-screen share links; never leaves the server. */
  shareSecret: Uint8Array;
  rsaPublicPem: string;
  rsaPrivatePem: string;
}

/**
 * The JWT key and the RSA key pair live in the database (sys_setting), so they are created once,
 * survive restarts and travel with the data — a token stays valid across a restart, and a fresh
 * in-memory test database gets fresh keys.
 */
export async function loadSecrets(db: Kysely<DB>): Promise<ServerSecrets> {
  const rows = await db
    .selectFrom('sys_setting')
    .select(['name', 'value'])
    .where('name', 'in', ['jwt_secret', 'share_secret', 'rsa_public', 'rsa_private'])
    .execute();
  const got = new Map(rows.map((r) => [r.name, r.value]));
  if (!got.has('share_secret')) {
    // Databases made before share links had no share secret: add one without touching the other keys.
    await db
      .insertInto('sys_setting')
      .values({ name: 'share_secret', value: randomBytes(32).toString('base64') })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return loadSecrets(db);
  }
  if (!got.has('jwt_secret') || !got.has('rsa_public') || !got.has('rsa_private')) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const values = { jwt_secret: randomBytes(32).toString('base64'), rsa_public: publicKey, rsa_private: privateKey };
    await db
      .insertInto('sys_setting')
      .values(Object.entries(values).map(([name, value]) => ({ name, value })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return loadSecrets(db);
  }
  return {
    jwtSecret: Buffer.from(got.get('jwt_secret') as string, 'base64'),
    shareSecret: Buffer.from(got.get('share_secret') as string, 'base64'),
    rsaPublicPem: got.get('rsa_public') as string,
    rsaPrivatePem: got.get('rsa_private') as string,
  };
}
