// A PostgreSQL database for one bench run, copied from a seeded template database that later runs reuse:
// seeding millions of rows takes minutes, copying them seconds.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface RunDatabase {
  url: string;
  name: string;
  /** The template it was copied from (undefined: seeded in place). */
  template: string | undefined;
  /** Whether the template was there already (false: this run seeded it). */
  reused: boolean;
  /** How long seeding took (0 when the template was reused), and the copy, ms. */
  seedMs: number;
  copyMs: number;
  drop: () => Promise<void>;
}

const urlOf = (admin: string, name: string) => {
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return u.toString();
};

async function withAdmin<T>(admin: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A fresh database named `wg_bench_<random>`. With `template` (a name of at most 63 characters), it is a
 * copy of that template database, which is first made with `seed` (given the address of an empty
 * database) when it does not exist, or when `rebuild`; without, `seed` fills the run's own database.
 * A template is complete once it has its name: it is seeded under another and renamed at the end, so a
 * run stopped while seeding leaves no half-seeded template behind.
 */
export async function runDatabase(
  admin: string,
  template: string | undefined,
  seed: (url: string) => Promise<void>,
  rebuild = false,
): Promise<RunDatabase> {
  const name = `wg_bench_${randomBytes(5).toString('hex')}`;
  const drop = (db: string) => withAdmin(admin, (c) => c.query(`drop database if exists "${db}" with (force)`).then(() => {}));
  let seedMs = 0;
  let copyMs = 0;
  let reused = false;
  if (!template) {
    await withAdmin(admin, (c) => c.query(`create database "${name}"`));
    const t = Date.now();
    await seed(urlOf(admin, name));
    seedMs = Date.now() - t;
  } else {
    const exists = async () =>
      withAdmin(admin, async (c) => (await c.query('select 1 from pg_database where datname = $1', [template])).rowCount === 1);
    if (rebuild && (await exists())) await drop(template);
    reused = await exists();
    if (!reused) {
      const building = `wg_bench_seeding_${randomBytes(5).toString('hex')}`;
      await withAdmin(admin, (c) => c.query(`create database "${building}"`));
      try {
        const t = Date.now();
        await seed(urlOf(admin, building));
        seedMs = Date.now() - t;
        await withAdmin(admin, (c) => c.query(`alter database "${building}" rename to "${template}"`));
      } catch (e) {
        await drop(building);
        // Another run seeded the same template meanwhile: use it.
        if (!(await exists())) throw e;
      }
    }
    const version = await withAdmin(admin, async (c) => Number((await c.query('show server_version_num')).rows[0].server_version_num));
    const t = Date.now();
    // PostgreSQL 15 copies through the write-ahead log by default, block by block; a file copy is much
    // faster for a large database (it costs two checkpoints).
    await withAdmin(admin, (c) =>
      c.query(`create database "${name}" template "${template}"${version >= 150000 ? ' strategy file_copy' : ''}`),
    );
    copyMs = Date.now() - t;
  }
  return { url: urlOf(admin, name), name, template, reused, seedMs, copyMs, drop: () => drop(name) };
}
