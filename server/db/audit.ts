import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  sql,
  type TransactionSettings,
} from 'kysely';

/**
 * The audit trail. Every change to a record of an audited table is written to sys_log by the table's row
 * trigger (wg_audit), in the statement that makes the change: the entry and the change commit together or
 * not at all, whichever code path wrote it (the generic view calls, the core calls, imports, script
 * actions, administration). The entry holds who (user, company), from where (address, browser), which
 * call, which record (table and key) and the fields that changed, each as [before, after].
 *
 * Who is writing travels with the request (runAudited, an AsyncLocalStorage): each write statement run
 * while it is set is sent on its connection between two set_config calls, which hand the trigger the
 * actor and clear it again. A failed statement inside a transaction rolls the setting back with it.
 * Writes without an actor (migrations, seeding the demo data, start-up maintenance) are the system's
 * own and are not recorded.
 */

/** Who makes the writes of a request, as the trigger reads it (short keys: it is sent with every write). */
export interface AuditActor {
  /** User id, username, company id (null: none or unknown). */
  u: number | null;
  n: string | null;
  c: number | null;
  /** Client address, its label (内网IP / 未知), browser (user agent). */
  ip: string;
  ad: string;
  b: string;
  /** The call's words (its operation-log description or title), and `METHOD /api/path`. */
  d: string;
  m: string;
  /** One id per request: the entries of one call share it. */
  r: string;
}

const store = new AsyncLocalStorage<{ actor: AuditActor; json: string }>();

/** Runs `fn` with its writes recorded as `actor`'s. */
export function runAudited<T>(actor: AuditActor, fn: () => T): T {
  return store.run({ actor, json: JSON.stringify(actor) }, fn);
}

/** The actor of the writes now running, if any. */
export function currentActor(): AuditActor | undefined {
  return store.getStore()?.actor;
}

/** A statement that may change rows (reads and transaction control are sent as they are). */
const WRITE = /^\s*(insert|update|delete|merge|copy)\b/i;
const WITH_WRITE = /^\s*with\b[\s\S]*\b(insert\s+into|update|delete\s+from)\b/i;
const isWrite = (text: string) => WRITE.test(text) || WITH_WRITE.test(text);

const SET = 'select set_config($1, $2, false)';
const SETTING = 'wastegen.audit';

class AuditedConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const current = store.getStore();
    if (!current || !isWrite(compiled.sql)) return this.inner.executeQuery<R>(compiled);
    await this.inner.executeQuery(CompiledQuery.raw(SET, [SETTING, current.json]));
    try {
      return await this.inner.executeQuery<R>(compiled);
    } finally {
      // In a transaction the statement aborted, this fails and the rollback undoes the setting instead.
      await this.inner.executeQuery(CompiledQuery.raw(SET, [SETTING, ''])).catch(() => {});
    }
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}

class AuditedDriver implements Driver {
  readonly #wrapped = new WeakMap<DatabaseConnection, AuditedConnection>();
  constructor(readonly inner: Driver) {}
  init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.inner.acquireConnection();
    let w = this.#wrapped.get(conn);
    if (!w) {
      w = new AuditedConnection(conn);
      this.#wrapped.set(conn, w);
    }
    return w;
  }
  #in(conn: DatabaseConnection): DatabaseConnection {
    return conn instanceof AuditedConnection ? conn.inner : conn;
  }
  beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(this.#in(conn), settings);
  }
  commitTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(this.#in(conn));
  }
  rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(this.#in(conn));
  }
  releaseConnection(conn: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.#in(conn));
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The dialect with its writes recorded as the running request's actor (see runAudited). */
export function auditedDialect(inner: Dialect): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => new AuditedDriver(inner.createDriver()),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

/**
 * The tables whose records the trail covers: business records, accounts and their grants, dictionaries,
 * definitions (views, screens, data views) and every view's table (lc_view_N, see auditTable). Not
 * covered: sessions, captchas, e-mail codes, the login guard's counts, visit counters, the dashboard's
 * derived figures and the log itself.
 */
export const AUDITED_TABLES = [
  'sys_setting',
  'sys_dept',
  'sys_role',
  'sys_menu',
  'sys_roles_menus',
  'sys_roles_depts',
  'sys_user',
  'sys_users_roles',
  'sys_dict',
  'sys_dict_detail',
  'company',
  'company_bank',
  'company_application',
  'company_linkman',
  'company_waste_category',
  'waste_category',
  'disposal_process',
  'disposal_order_manual',
  'disposal_testing_application',
  'materials_code',
  'inventory_config',
  'dash_target',
  'bulletin',
  'privacy_policy',
  'file_record',
  'sys_message',
  'leave_message',
  'lc_generation',
  'lc_screen',
  'lc_data_view',
] as const;

/** Columns whose change alone is not an operation: read marks, counters and the update time. */
const IGNORED: Readonly<Record<string, string[]>> = { bulletin: ['views'] };

/**
 * The trigger function: one sys_log entry per changed row while an actor is set. Unchanged fields, the
 * update time and read marks are left out (an update that changes nothing else writes no entry); secrets
 * (password, secret, token and key fields such as a big screen's share key, and settings that hold keys
 * or logins) show as ******; a long value is cut to its first 200 characters.
 */
export const AUDIT_FUNCTION = sql`
create or replace function wg_audit() returns trigger language plpgsql as $fn$
declare
  ctx jsonb := nullif(current_setting('wastegen.audit', true), '')::jsonb;
  o jsonb;
  n jsonb;
  k text;
  b jsonb;
  a jsonb;
  changes jsonb := '{}'::jsonb;
  keys text[] := string_to_array(coalesce(nullif(tg_argv[0], ''), 'id'), ',');
  skip text[] := array['update_time', 'have_read'] || coalesce(string_to_array(nullif(tg_argv[1], ''), ','), array[]::text[]);
  rid text;
begin
  if ctx is null then
    return null;
  end if;
  if tg_op <> 'INSERT' then o := to_jsonb(old); end if;
  if tg_op <> 'DELETE' then n := to_jsonb(new); end if;
  for k in select jsonb_object_keys(coalesce(n, o)) loop
    continue when k = any(skip);
    b := nullif(o -> k, 'null'::jsonb);
    a := nullif(n -> k, 'null'::jsonb);
    continue when b is not distinct from a;
    if k ~* '(^|_)(password|secret|token|key)($|_)'
      or (tg_table_name = 'sys_setting' and coalesce(n, o) ->> 'name' ~* '(secret|password|key|token|login|data_view)') then
      b := case when b is null then null else '"******"'::jsonb end;
      a := case when a is null then null else '"******"'::jsonb end;
    end if;
    if length(b::text) > 500 then b := to_jsonb(left(coalesce(b #>> '{}', b::text), 200) || '…'); end if;
    if length(a::text) > 500 then a := to_jsonb(left(coalesce(a #>> '{}', a::text), 200) || '…'); end if;
    changes := changes || jsonb_build_object(k, jsonb_build_array(b, a));
  end loop;
  if tg_op = 'UPDATE' and changes = '{}'::jsonb then
    return null;
  end if;
  select string_agg(coalesce(coalesce(n, o) ->> x, ''), ',') into rid from unnest(keys) as x;
  insert into sys_log (user_id, username, company_id, description, method, request_ip, address, browser,
    record_table, record_id, action, changes, request_id)
  values ((ctx ->> 'u')::integer, ctx ->> 'n', (ctx ->> 'c')::bigint, left(coalesce(ctx ->> 'd', '操作'), 255),
    left(ctx ->> 'm', 255), left(ctx ->> 'ip', 64), left(ctx ->> 'ad', 255), left(ctx ->> 'b', 255),
    tg_table_name, left(rid, 100), lower(tg_op), changes, left(ctx ->> 'r', 40));
  return null;
end
$fn$`;

/**
 * Puts `table` under the trail (its primary key names the record), once; nothing when the trigger
 * function is not installed yet (migrations before the trail's).
 */
export async function auditTable(db: Kysely<unknown>, table: string): Promise<void> {
  const state = await sql<{ fn: boolean; has: boolean; keys: string | null }>`
    select exists (select 1 from pg_proc where proname = 'wg_audit') as fn,
      exists (select 1 from pg_trigger where tgrelid = to_regclass(${table}) and tgname = 'wg_audit') as has,
      (select string_agg(a.attname, ',' order by k.n) from pg_index i
        cross join lateral unnest(i.indkey) with ordinality as k(attnum, n)
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
        where i.indrelid = to_regclass(${table}) and i.indisprimary) as keys`.execute(db);
  const s = state.rows[0];
  if (!s?.fn || s.has) return;
  const args = [s.keys ?? 'id', (IGNORED[table] ?? []).join(',')].map((x) => sql.lit(x));
  await sql`create trigger wg_audit after insert or update or delete on ${sql.table(table)}
    for each row execute function wg_audit(${sql.join(args)})`.execute(db);
}
