// Where PostgreSQL's time went in a bench run, by kind of statement, from pg_stat_statements: reset for
// the run's database when the measured window starts, read when it ends.
import pg from 'pg';

/** The kinds a statement is told apart by, from its text. */
export const KINDS = ['list page', 'count', 'text search', 'write', 'rows into memory', 'other'] as const;
export type Kind = (typeof KINDS)[number];

const WRITE = /^\s*(insert|update|delete|merge|copy)\b/i;
const WITH_WRITE = /^\s*with\b[\s\S]*\b(insert\s+into|update\s+\S+\s+(as\s+\S+\s+)?set|delete\s+from)\b/i;

/**
 * The kind of a statement, by its text, first match wins:
 * - write: insert, update, delete (also inside `with`), `select … for update`, the transaction's
 *   begin and commit (a commit waits for the disk), and the audit trail's `set_config` around each write;
 * - rows into memory: the reads that fill an instance's rows in memory (their row states, `"#r"`);
 * - text search: any statement with `like`, `ilike` or a trigram operator (its page or its count);
 * - count: `select count(*)`;
 * - list page: a page or block of a list (`json_agg` over the view's rows, or a select with a limit);
 * - other: the rest (the listening connection's round trips, sessions, dictionaries, a new record's
 *   number check, and the bench's sampler of `pg_stat_activity`, told first).
 */
export function statementKind(text: string): Kind {
  const t = text.trim();
  // The bench's own sampler of backends' waits, and anything else that reads the statistics views.
  if (/\bpg_stat_\w+/i.test(t)) return 'other';
  if (WRITE.test(t) || WITH_WRITE.test(t) || /\bfor\s+update\b/i.test(t)) return 'write';
  if (/^(begin|start\s+transaction|commit|rollback|savepoint|release)\b/i.test(t) || /\bset_config\(/i.test(t)) return 'write';
  if (t.includes('"#r"')) return 'rows into memory';
  if (/\s(i?like|%>>?|<<?%)\s/i.test(t) || /\bsimilarity\(/i.test(t)) return 'text search';
  if (/^select\s+count\(\*\)/i.test(t)) return 'count';
  if (/\bjson_agg\(/i.test(t) || (/\blc_view_\d+/.test(t) && /\blimit\b/i.test(t))) return 'list page';
  return 'other';
}

interface Row {
  query: string;
  calls: number;
  ms: number;
}

/** pg_stat_statements over the admin connection; `available` false (and why) when it is not loaded. */
export async function statementStats(adminUrl: string): Promise<
  | { available: false; why: string }
  | {
      available: true;
      reset: (database: string) => Promise<void>;
      read: (database: string) => Promise<Row[]>;
    }
> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const libs = String((await c.query('show shared_preload_libraries')).rows[0]?.shared_preload_libraries ?? '');
    if (!libs.split(',').some((l) => l.trim() === 'pg_stat_statements'))
      return {
        available: false,
        why:
          'pg_stat_statements is not loaded: start PostgreSQL with `-c shared_preload_libraries=pg_stat_statements` ' +
          '(or set it in postgresql.conf and restart) to see where its time goes',
      };
    await c.query('create extension if not exists pg_stat_statements');
  } catch (e) {
    return { available: false, why: `pg_stat_statements cannot be read: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    await c.end();
  }
  const withClient = async <T>(fn: (c: pg.Client) => Promise<T>) => {
    const k = new pg.Client({ connectionString: adminUrl });
    await k.connect();
    try {
      return await fn(k);
    } finally {
      await k.end();
    }
  };
  return {
    available: true,
    reset: (database) =>
      withClient(async (k) => {
        await k.query('select pg_stat_statements_reset(0, d.oid, 0) from pg_database d where d.datname = $1', [database]);
      }),
    read: (database) =>
      withClient(async (k) => {
        const r = await k.query(
          `select s.query, s.calls::int as calls, (s.total_exec_time + s.total_plan_time)::float8 as ms
           from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = $1`,
          [database],
        );
        return r.rows as Row[];
      }),
  };
}

/** PostgreSQL's time by kind (share, calls, total and mean), and the statements that took most. */
export function sharesOf(rows: Row[], top = 8) {
  const total = rows.reduce((s, r) => s + r.ms, 0);
  const byKind = new Map<Kind, { calls: number; ms: number }>(KINDS.map((k) => [k, { calls: 0, ms: 0 }]));
  for (const r of rows) {
    const k = byKind.get(statementKind(r.query)) as { calls: number; ms: number };
    k.calls += r.calls;
    k.ms += r.ms;
  }
  const pct = (ms: number) => (total ? `${((100 * ms) / total).toFixed(1)}%` : '—');
  const kinds = Object.fromEntries(
    [...byKind].map(([kind, v]) => [
      kind,
      { share: pct(v.ms), calls: v.calls, 'total ms': Math.round(v.ms), 'mean ms': v.calls ? +(v.ms / v.calls).toFixed(2) : 0 },
    ]),
  );
  const biggest = [...rows]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map((r) => ({
      kind: statementKind(r.query),
      share: pct(r.ms),
      calls: r.calls,
      'mean ms': +(r.ms / Math.max(1, r.calls)).toFixed(2),
      statement: r.query.replace(/\s+/g, ' ').trim().slice(0, 110),
    }));
  return { totalMs: Math.round(total), kinds, biggest };
}
