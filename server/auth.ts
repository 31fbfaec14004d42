import { constants, createPrivateKey, privateDecrypt, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import { ADMIN_ROLE, hasPermission } from '../src/model/index.js';
import { type DataScope, loadDataScope } from './access/scope.js';
import type { Bus } from './bus.js';
import type { DB } from './db/schema.js';
import { ApiError, badRequest, forbidden, unauthorized } from './errors.js';
import type { ServerSecrets } from './secrets.js';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, keylen: number, opts: object) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** `scrypt$N$r$p$salt$hash`, base64 parts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const got = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** Passwords travel RSA-OAEP (SHA-256) encrypted, base64. A malformed cipher text is a 400, never a 500. */
export function decryptPassword(secrets: ServerSecrets, cipherBase64: string): string {
  try {
    const key = createPrivateKey(secrets.rsaPrivatePem);
    return privateDecrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(cipherBase64, 'base64'),
    ).toString('utf8');
  } catch {
    throw badRequest('PASSWORD_DECRYPT_FAILED');
  }
}

export interface SessionUser {
  sessionId: string;
  id: number;
  username: string;
  nickName: string;
  isAdmin: boolean;
  deptId: number | null;
  deptCode: string | null;
  companyId: number | null;
  /** logistics, collectionPoint or null */
  permission: string | null;
  /** `["admin"]` for admins, else the permission strings of the user's roles' menus, else `["ROLE_SYSTEM_DEFAULT"]`. */
  roles: string[];
  /** Whether the account has accepted the entry agreement. */
  agreementAccepted: boolean;
  /** When the password was last set (ms), null when it must be changed before anything else. */
  passwordSetAt: number | null;
  /** Whose records the user sees and changes, from its roles. */
  dataScope: DataScope;
}

/** Days after which a password must be changed. */
export const PASSWORD_MAX_AGE_DAYS = 90;

/**
 * Why the account may call only the calls that resolve its state, or null when it may call anything:
 * an expired password, or an entry agreement not yet accepted.
 */
export function pendingState(user: Pick<SessionUser, 'agreementAccepted' | 'passwordSetAt'>, now = Date.now()): ApiError | null {
  if (!user.agreementAccepted) return forbidden('AGREEMENT_PENDING');
  if (user.passwordSetAt === null || now - user.passwordSetAt > PASSWORD_MAX_AGE_DAYS * 86_400_000) {
    return forbidden('PASSWORD_EXPIRED');
  }
  return null;
}

export { ADMIN_ROLE, hasPermission };
export const DEFAULT_ROLE = 'ROLE_SYSTEM_DEFAULT';

export async function rolesOf(db: Kysely<DB>, userId: number, isAdmin: boolean): Promise<string[]> {
  if (isAdmin) return [ADMIN_ROLE];
  const rows = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'ur.role_id')
    .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
    .select('m.permission')
    .distinct()
    .where('ur.user_id', '=', userId)
    .where('m.permission', 'is not', null)
    .where('m.permission', '<>', '')
    .orderBy('m.permission')
    .execute();
  const perms = rows.flatMap((r) =>
    (r.permission ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return perms.length ? [...new Set(perms)].sort() : [DEFAULT_ROLE];
}

interface CachedSession {
  user: SessionUser;
  lastSeen: number;
  /** Until then (ms) the idle timeout does not end it: signed in with 记住我. */
  rememberUntil: number;
  persistedAt: number;
  version: number;
}

/**
 * Sessions are rows in sys_session; a JWT carries the session id. The idle timeout is enforced
 * against last_seen. An in-memory cache keeps the per-request cost to a JWT check: last_seen is
 * written back at most once a minute, and any change to users, roles or menus bumps a version
 * that makes cached role lists reload.
 */
export class SessionService {
  readonly #cache = new Map<string, CachedSession>();
  /** Tokens whose signature was checked, with their session id and expiry (s): the same bytes check the same. */
  readonly #verified = new Map<string, { sid: string | undefined; exp: number | undefined }>();
  #version = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly secrets: ServerSecrets,
    private readonly idleMs: number,
    private readonly bus?: Bus,
    /** What time it is for idle sessions (tests move it on instead of waiting). */
    private readonly clock: () => number = Date.now,
    /** How long a session signed in with 记住我 outlives the idle timeout. */
    private readonly rememberMs = 24 * 60 * 60 * 1000,
  ) {
    bus?.on((e) => {
      if (e.t === 'access-changed') this.#version++;
      else if (e.t === 'session-ended') this.#cache.delete(e.sid);
      else if (e.t === 'user-sessions-ended') for (const [k, v] of this.#cache) if (v.user.id === e.userId) this.#cache.delete(k);
    });
    // Missed events: every cached session is read again from the database.
    bus?.onReset(() => this.#cache.clear());
  }

  /** Call after any change to users, roles, menus or their links; every instance reloads role lists. */
  invalidate(): void {
    if (this.bus) void this.bus.publish({ t: 'access-changed' });
    else this.#version++;
  }

  /** The idle timeout ends a session unless it was signed in with 记住我 and that day has not run out. */
  #expired(now: number, lastSeen: number, rememberUntil: number): boolean {
    return now - lastSeen > this.idleMs && now > rememberUntil;
  }

  /** `remember` (记住我): the session outlives the idle timeout for `rememberMs`, and its token as long. */
  async create(userId: number, req: FastifyRequest, remember = false): Promise<string> {
    const id = randomBytes(24).toString('base64url');
    const now = this.clock();
    const lifetime = Math.max(remember ? this.rememberMs : 0, 24 * 60 * 60 * 1000);
    await this.db
      .insertInto('sys_session')
      .values({
        id,
        user_id: userId,
        ip: req.ip,
        browser: String(req.headers['user-agent'] ?? '').slice(0, 255),
        last_seen: new Date(now),
        remember_until: remember ? new Date(now + this.rememberMs) : null,
      })
      .execute();
    const jwt = await new SignJWT({ uid: userId })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(id)
      .setIssuedAt()
      .setExpirationTime(Math.floor((now + lifetime) / 1000))
      .sign(this.secrets.jwtSecret);
    return `Bearer ${jwt}`;
  }

  async destroy(sessionId: string): Promise<void> {
    this.#cache.delete(sessionId);
    await this.db.deleteFrom('sys_session').where('id', '=', sessionId).execute();
    await this.bus?.publish({ t: 'session-ended', sid: sessionId });
  }

  async destroyAllOf(userId: number): Promise<void> {
    for (const [k, v] of this.#cache) if (v.user.id === userId) this.#cache.delete(k);
    await this.db.deleteFrom('sys_session').where('user_id', '=', userId).execute();
    await this.bus?.publish({ t: 'user-sessions-ended', userId });
  }

  /**
   * Of the given sessions, the ones that have ended, without touching the others' last use: gone,
   * the account no longer active, or idle past the limit (those are ended here, on every instance).
   */
  async ended(sessionIds: readonly string[]): Promise<string[]> {
    const gone: string[] = [];
    const now = this.clock();
    for (let i = 0; i < sessionIds.length; i += 500) {
      const ids = sessionIds.slice(i, i + 500);
      const rows = await this.db
        .selectFrom('sys_session as s')
        .innerJoin('sys_user as u', 'u.id', 's.user_id')
        .select(['s.id', 's.last_seen', 's.remember_until', 'u.status'])
        .where('s.id', 'in', ids)
        .execute();
      const found = new Map(rows.map((r) => [r.id, r]));
      for (const sid of ids) {
        const row = found.get(sid);
        if (row?.status !== 0) {
          this.#cache.delete(sid);
          gone.push(sid);
          continue;
        }
        const cached = this.#cache.get(sid)?.lastSeen ?? 0;
        if (this.#expired(now, Math.max(cached, row.last_seen.getTime()), row.remember_until?.getTime() ?? 0)) {
          await this.destroy(sid);
          gone.push(sid);
        }
      }
    }
    return gone;
  }

  /** The session of a public route when the request carries a valid token, else null (never throws). */
  async optional(authorization: string | undefined): Promise<SessionUser | null> {
    if (!authorization) return null;
    try {
      return await this.authenticate(authorization);
    } catch {
      return null;
    }
  }

  /** Resolves an Authorization value (with or without `Bearer `) to the session's user, or throws 401. */
  async authenticate(authorization: string | undefined): Promise<SessionUser> {
    if (!authorization) throw unauthorized('NOT_SIGNED_IN');
    const token = authorization.replace(/^Bearer\s+/i, '');
    const now = this.clock();
    let checked = this.#verified.get(token);
    if (!checked || (checked.exp !== undefined && checked.exp * 1000 <= now)) {
      try {
        const { payload } = await jwtVerify(token, this.secrets.jwtSecret, { algorithms: ['HS256'] });
        checked = { sid: payload.jti, exp: payload.exp };
      } catch {
        throw unauthorized();
      }
      if (this.#verified.size >= 10_000) this.#verified.clear();
      this.#verified.set(token, checked);
    }
    const sid = checked.sid;
    if (!sid) throw unauthorized();
    const cached = this.#cache.get(sid);
    // A session that looks idle here may have been busy on another instance: the database decides.
    // While other instances' logouts may go unheard, every request asks the database.
    const trusted = this.bus?.mode !== 'disconnected';
    if (trusted && cached && cached.version === this.#version && !this.#expired(now, cached.lastSeen, cached.rememberUntil)) {
      cached.lastSeen = now;
      if (now - cached.persistedAt > 60_000) {
        cached.persistedAt = now;
        await this.db
          .updateTable('sys_session')
          .set({ last_seen: new Date(now) })
          .where('id', '=', sid)
          .execute();
      }
      return cached.user;
    }
    const row = await this.db
      .selectFrom('sys_session as s')
      .innerJoin('sys_user as u', 'u.id', 's.user_id')
      .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
      .select([
        's.id as sid',
        's.last_seen',
        's.remember_until',
        'u.id',
        'u.username',
        'u.nick_name',
        'u.is_admin',
        'u.status',
        'u.dept_id',
        'u.company_id',
        'u.permission',
        'u.agreement_accepted',
        'u.pwd_reset_time',
        'd.code as dept_code',
      ])
      .where('s.id', '=', sid)
      .executeTakeFirst();
    if (row?.status !== 0) throw unauthorized();
    const lastSeen = cached ? Math.max(cached.lastSeen, row.last_seen.getTime()) : row.last_seen.getTime();
    const rememberUntil = row.remember_until?.getTime() ?? 0;
    if (this.#expired(now, lastSeen, rememberUntil)) {
      await this.destroy(sid);
      throw unauthorized();
    }
    const user: SessionUser = {
      sessionId: sid,
      id: row.id,
      username: row.username,
      nickName: row.nick_name,
      isAdmin: row.is_admin,
      deptId: row.dept_id,
      deptCode: row.dept_code,
      companyId: row.company_id,
      permission: row.permission,
      roles: await rolesOf(this.db, row.id, row.is_admin),
      agreementAccepted: row.agreement_accepted,
      passwordSetAt: row.pwd_reset_time ? new Date(row.pwd_reset_time).getTime() : null,
      dataScope: await loadDataScope(this.db, {
        id: row.id,
        username: row.username,
        isAdmin: row.is_admin,
        deptId: row.dept_id,
        deptCode: row.dept_code,
        companyId: row.company_id,
      }),
    };
    await this.db
      .updateTable('sys_session')
      .set({ last_seen: new Date(now) })
      .where('id', '=', sid)
      .execute();
    this.#cache.set(sid, { user, lastSeen: now, rememberUntil, persistedAt: now, version: this.#version });
    return user;
  }
}

/** The signed-in user of a non-public route. */
export function currentUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

/** Throws 403 unless the user holds one of the permissions (admin and the wildcard always pass). */
export function requirePermission(req: FastifyRequest, ...permissions: string[]): SessionUser {
  const user = currentUser(req);
  if (permissions.length && !permissions.some((p) => hasPermission(user.roles, p))) throw forbidden();
  return user;
}

export { ApiError };
