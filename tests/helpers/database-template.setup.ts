/**
 * Global setup of the server and browser suites: one migrated, seeded database that every test server
 * starts from, instead of creating, migrating and seeding its own (about 10 s each on PGlite). On PGlite
 * it is a dumped data folder; on PostgreSQL (TEST_DATABASE_URL) a template database that each test
 * file's database is created from.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/database.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seedIfEmpty } from '../../server/seed/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated, seeded PGlite data folder (tar). */
    pgliteSnapshot: string;
    /** A migrated, seeded PostgreSQL database to create test databases from; empty without TEST_DATABASE_URL. */
    postgresTemplate: string;
  }
}

async function adminQuery(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-snapshot-'));
  const file = join(dir, 'pglite.tar');
  const lite = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateToLatest(lite.db as never);
    await seedIfEmpty(lite.db);
    if (!lite.dump) throw new Error('PGlite offers no dump of its data folder');
    writeFileSync(file, Buffer.from(await (await lite.dump()).arrayBuffer()));
  } finally {
    await lite.close();
  }
  project.provide('pgliteSnapshot', file);

  const admin = process.env.TEST_DATABASE_URL;
  let template = '';
  if (admin) {
    template = `wg_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(admin, `create database ${template}`);
    const u = new URL(admin);
    u.pathname = `/${template}`;
    const db = await openDatabase({ url: u.toString(), poolSize: 1 });
    try {
      await migrateToLatest(db.db as never);
      await seedIfEmpty(db.db);
    } finally {
      await db.close();
    }
  }
  project.provide('postgresTemplate', template);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (admin && template) await adminQuery(admin, `drop database if exists ${template} with (force)`);
  };
}
