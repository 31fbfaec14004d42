import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RawBuilder,
  type RootOperationNode,
  sql,
  type TransactionSettings,
  type UnknownRow,
} from 'kysely';

/**
 * The audit trail. Every change to a record of an audited table is written to sys_log by the table's row
 * trigger (wg_audit), in the statement that makes the change: the entry and the change commit together or
 * not at all, whichever code path wrote it (the generic view calls, the core calls, imports, script
 * actions, administration). The entry holds who (user, company), from where (address, browser), which
 * call, which record (table and key) and the fields that changed, each as [before, after].
 *
 * Who is writing travels with the statement: a request writes through its writer's handle
 * (writingAs), whose every statement is marked with the writer; before a write statement, its
 * connection's setting (set_config) is made to hold that writer, which the trigger reads; a rollback
 * undoes it with the rest of the transaction. Writes through an unmarked handle (migrations, seeding
 * the demo data, start-up maintenance) are the system's own: the setting is cleared for them, and they
 * are not recorded. The handle the route modules hold refuses to write an audited table (refusingWrites):
 * a call that writes one through anything but its writer's handle fails instead of going unrecorded.
 * No AsyncLocalStorage is involved: on Node 20 one makes every promise of the process run hooks.
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

/** The setting of the system's own writes: none, and nothing is recorded. */
const SYSTEM = '';
/** The setting of a write made through the route modules' handle: the trigger refuses it. */
const REFUSE = '{"refuse":true}';

/** The setting each marked statement is to run with, by its query id. */
const settingOfQuery = new WeakMap<QueryId, string>();

/** Marks every statement of a handle with the setting it is to run with (the last mark given wins). */
class WriterMark implements KyselyPlugin {
  constructor(readonly setting: string) {}
  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    settingOfQuery.set(queryId, this.setting);
    return node;
  }
  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

/** The handle each marked handle was made from, first of its line. */
const roots = new WeakMap<object, object>();

function marked<D>(db: Kysely<D>, setting: string): Kysely<D> {
  const handle = db.withPlugin(new WriterMark(setting));
  roots.set(handle, roots.get(db) ?? db);
  return handle;
}

/** The database a handle reaches, the same object for every handle marked from one (what is kept per database is keyed on it). */
export const databaseOf = (db: object): object => roots.get(db) ?? db;

/** `db`, with its writes recorded as `actor`'s (its transactions' too). */
export function writingAs<D>(db: Kysely<D>, actor: AuditActor): Kysely<D> {
  return marked(db, JSON.stringify(actor));
}

/**
 * `db` for the server's own maintenance done while serving a call (setting up what the server needs, not
 * a change the caller asked for): its writes are recorded by no one.
 */
export function asSystem<D>(db: Kysely<D>): Kysely<D> {
  return marked(db, SYSTEM);
}

/** `db` for code that serves calls: it reads, and writes what the trail does not cover; an audited table's write fails. */
export function refusingWrites<D>(db: Kysely<D>): Kysely<D> {
  return marked(db, REFUSE);
}

/** A statement that may change rows (reads and transaction control are sent as they are). */
const WRITE = /^\s*(insert|update|delete|merge|copy)\b/i;
const WITH_WRITE = /^\s*with\b[\s\S]*\b(insert\s+into|update|delete\s+from)\b/i;
const isWrite = (text: string) => WRITE.test(text) || WITH_WRITE.test(text);
/**
 * A write of the log itself (a call's time, an entry of its own): sys_log is not audited and has no
 * trigger, so it records nothing whatever the setting holds.
 */
const LOG_WRITE = /^\s*(update|insert\s+into)\s+"sys_log"\s/i;
/** A statement after which settings made since some earlier point may have been undone. */
const UNDOES = /^\s*(rollback|abort)\b/i;
/** Transaction control sent as a statement rather than through the driver. */
const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
const ENDS = /^\s*(commit|end|abort|rollback(?!\s+to\b))\b/i;

const SET = 'select set_config($1, $2, false)';
const SETTING = 'wastegen.audit';

/**
 * The setting made by the write statement itself, for the writer of the handle it runs on (filled in
 * when it is sent): a column of its RETURNING list, which is computed before the statement's row
 * triggers fire. It lasts until the statement's transaction ends, and such a statement needs no
 * set_config before it.
 */
export const ownAuditSetting = (): RawBuilder<string> => sql<string>`set_config('wastegen.audit', ${SYSTEM}, true)`;
const OWN_SETTING = /set_config\('wastegen\.audit', \$(\d+), true\)/;

/**
 * A connection of the audited dialect. The setting is sent before a write only when the connection does
 * not hold the writer's already: a request's writes after its first on a connection, and the reads
 * between, cost no round trip, and the setting is not cleared after each write. A write without an actor
 * clears it first when it holds one, so the system's own writes are never recorded as the last caller's.
 */
class AuditedConnection implements DatabaseConnection {
  /** What the setting holds on this connection ('' nothing), or undefined when that is not known. */
  setting: string | undefined = '';
  /** The setting when the transaction under way began: a rollback returns to it. */
  atBegin: string | undefined;
  /** Whether a transaction is under way (begun through the driver or by a statement). */
  inTransaction = false;

  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const text = compiled.sql;
    if (!isWrite(text)) {
      // A rollback to a savepoint, run as a statement, undoes what was set after the savepoint.
      if (UNDOES.test(text)) this.setting = undefined;
      if (BEGINS.test(text)) this.inTransaction = true;
      else if (ENDS.test(text)) this.inTransaction = false;
      return this.inner.executeQuery<R>(compiled);
    }
    // The log has no trigger: what the setting holds does not matter to its writes.
    if (LOG_WRITE.test(text)) return this.inner.executeQuery<R>(compiled);
    const want = settingOfQuery.get(compiled.queryId) ?? SYSTEM;
    const own = OWN_SETTING.exec(text);
    if (own) {
      // In a transaction its setting outlives the statement: the next write sends the setting again.
      if (this.inTransaction) this.setting = undefined;
      const parameters = [...compiled.parameters];
      parameters[Number(own[1]) - 1] = want;
      return this.inner.executeQuery<R>({ ...compiled, parameters });
    }
    if (this.setting !== want) {
      this.setting = undefined;
      await this.inner.executeQuery(CompiledQuery.raw(SET, [SETTING, want]));
      this.setting = want;
    }
    return this.inner.executeQuery<R>(compiled);
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
  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (conn instanceof AuditedConnection) {
      conn.atBegin = conn.setting;
      conn.inTransaction = true;
    }
    return this.inner.beginTransaction(this.#in(conn), settings);
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    // A commit keeps what the transaction set; after a commit that failed the setting is not known until sent again.
    if (conn instanceof AuditedConnection) {
      conn.atBegin = undefined;
      conn.inTransaction = false;
    }
    try {
      await this.inner.commitTransaction(this.#in(conn));
    } catch (e) {
      if (conn instanceof AuditedConnection) conn.setting = undefined;
      throw e;
    }
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    // A rollback undoes what the transaction set: the setting is again what it was when it began.
    if (conn instanceof AuditedConnection) {
      conn.setting = conn.atBegin;
      conn.atBegin = undefined;
      conn.inTransaction = false;
    }
    return this.inner.rollbackTransaction(this.#in(conn));
  }
  releaseConnection(conn: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.#in(conn));
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The dialect with each write recorded as the writer of the handle it was made through (see writingAs). */
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

/**
 * Columns of a table whose change alone is not an operation: read marks and counters (the update time
 * of every table besides). Named per table, so that a view's field of the same name is recorded.
 */
export const IGNORED: Readonly<Record<string, string[]>> = {
  bulletin: ['views'],
  sys_message: ['have_read'],
  leave_message: ['have_read'],
};

/**
 * The trigger function: one sys_log entry per changed row while an actor is set, and a refusal while the
 * setting says the write was made without its call's writer. Unchanged fields, the
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
  skip text[] := array['update_time'] || coalesce(string_to_array(nullif(tg_argv[1], ''), ','), array[]::text[]);
  rid text;
begin
  if ctx is null then
    return null;
  end if;
  if ctx ? 'refuse' then
    raise exception 'wastegen: % written without the writer of its call (a write of the audit trail''s tables goes through the call''s writer)', tg_table_name;
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
