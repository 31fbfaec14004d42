import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { errorMessage } from '../src/shared/error-catalogue.js';
import { hashPassword, verifyPassword } from './auth.js';
import type { AppContext } from './context.js';
import type { DB } from './db/schema.js';
import { ApiError } from './errors.js';

export interface LoginGuardOptions {
  /** Failed passwords within the window that lock the account. */
  failures: number;
  /** The window failures are counted in (ms). */
  windowMs: number;
  /** How long a locked account refuses every login, the right password included (ms). */
  lockMs: number;
}

/** Longest username kept as a lock key; longer ones are cut (no account has such a name). */
const KEY_LENGTH = 255;
/** Longest client address kept (an IPv6 address with a zone fits). */
const ADDRESS_LENGTH = 64;
/** How often an instance deletes failure counts that no longer matter. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** "请 3 分钟后再试" or, under a minute and a half, in seconds. */
export function retryIn(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 90 ? `请 ${seconds} 秒后再试` : `请 ${Math.ceil(seconds / 60)} 分钟后再试`;
}

/** The answer of a login call while the account is locked: 429 and when to try again. */
export class AccountLocked extends ApiError {
  constructor(
    /** How long the lock still holds. */
    readonly ms: number,
  ) {
    super(429, 'ACCOUNT_LOCKED', errorMessage('ACCOUNT_LOCKED', { retry: retryIn(ms) }));
  }
}

/**
 * The per-IP limit of a call answers 429 with a Chinese message (the plugin sets Retry-After).
 * Limits are enabled route by route; none applies unless a route asks for one.
 */
export const rateLimitPluginOptions = {
  global: false,
  errorResponseBuilder: (_req: FastifyRequest, context: { ttl: number }) =>
    new ApiError(429, 'RATE_LIMITED', errorMessage('RATE_LIMITED', { retry: retryIn(context.ttl) })),
};

/** Who tries a password: the account name (as typed at login) and the client's address (`req.ip`, as TRUST_PROXY resolves it). */
export interface Attempt {
  username: string;
  address: string;
}

/** The attempt of a request for this account name. */
export const attemptOf = (req: FastifyRequest, username: string): Attempt => ({ username, address: req.ip ?? '' });

/**
 * Locks an account for one client address after too many failed passwords from that address, whichever
 * instance saw them: the counts live in sys_login_guard, keyed by the username as typed (whether or not
 * such an account exists, so a lock tells nothing about which accounts exist) and the address. Guesses
 * from one address stop at the allowance, and nobody elsewhere can lock an account out for its owner.
 * An unknown username is checked against a dummy hash that costs what a real check costs, so the
 * answer's timing does not tell either.
 *
 * Every check of a password the caller types goes through here: the login, and a signed-in user's old
 * password (password change, e-mail change), whose failures count for the account as the login's do.
 */
export class LoginGuard {
  readonly #dummyHash: Promise<string>;
  #prunedAt = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly opts: LoginGuardOptions,
  ) {
    this.#dummyHash = hashPassword(randomBytes(18).toString('base64'));
    this.#dummyHash.catch(() => {});
  }

  static key(username: string): string {
    return username.trim().slice(0, KEY_LENGTH);
  }

  static address(address: string): string {
    return address.slice(0, ADDRESS_LENGTH);
  }

  /** Throws 429 while the account is locked for this address. */
  async assertOpen(attempt: Attempt): Promise<void> {
    const row = await sql<{ ms: number }>`
      select (extract(epoch from (locked_until - now())) * 1000)::float8 as ms
      from sys_login_guard
      where username = ${LoginGuard.key(attempt.username)} and address = ${LoginGuard.address(attempt.address)}
        and locked_until > now()
    `.execute(this.db);
    const ms = row.rows[0]?.ms;
    if (ms !== undefined && ms > 0) throw new AccountLocked(ms);
  }

  /** Checks a password against the account's hash, or against the dummy hash when there is no account. */
  async verify(plain: string, stored: string | undefined): Promise<boolean> {
    if (stored !== undefined) return verifyPassword(plain, stored);
    await verifyPassword(plain, await this.#dummyHash);
    return false;
  }

  /** Counts a failed password; throws 429 when this failure locks the account for the address. */
  async failed(attempt: Attempt): Promise<void> {
    const key = LoginGuard.key(attempt.username);
    const address = LoginGuard.address(attempt.address);
    const windowMs = Math.max(0, Math.round(this.opts.windowMs));
    const counted = await sql<{ failures: number }>`
      insert into sys_login_guard as g (username, address, failures, window_start)
      values (${key}, ${address}, 1, now())
      on conflict (username, address) do update set
        failures = case
          when g.window_start is null or g.window_start <= now() - make_interval(secs => ${windowMs / 1000}) then 1
          else g.failures + 1 end,
        window_start = case
          when g.window_start is null or g.window_start <= now() - make_interval(secs => ${windowMs / 1000}) then now()
          else g.window_start end
      returning failures
    `.execute(this.db);
    this.#prune();
    if ((counted.rows[0]?.failures ?? 0) < this.opts.failures) return;
    // The count starts again once the lock is set: after it ends, the account has its full allowance back.
    await sql`
      update sys_login_guard
      set locked_until = now() + make_interval(secs => ${Math.max(0, this.opts.lockMs) / 1000}), failures = 0, window_start = null
      where username = ${key} and address = ${address} and failures >= ${this.opts.failures}
    `.execute(this.db);
    await this.assertOpen(attempt);
  }

  /**
   * A password the caller typed, checked against the account's hash: refused with 429 while the account
   * is locked for the caller's address, a wrong one counted (and 429 when it locks), a right one forgetting
   * that address's failures. Answers whether it was right.
   */
  async check(attempt: Attempt, plain: string, stored: string | undefined): Promise<boolean> {
    await this.assertOpen(attempt);
    const valid = await this.verify(plain, stored);
    if (valid) await this.succeeded(attempt);
    else await this.failed(attempt);
    return valid;
  }

  /** Lifts the locks and failure counts of these usernames, from every address (an administrator's password reset). */
  static async forget(db: Kysely<DB>, usernames: string[]): Promise<void> {
    if (!usernames.length) return;
    await db
      .deleteFrom('sys_login_guard')
      .where(
        'username',
        'in',
        usernames.map((u) => LoginGuard.key(u)),
      )
      .execute();
  }

  /** A right password forgets the account's failures from that address (the others' stay counted). */
  async succeeded(attempt: Attempt): Promise<void> {
    await this.db
      .deleteFrom('sys_login_guard')
      .where('username', '=', LoginGuard.key(attempt.username))
      .where('address', '=', LoginGuard.address(attempt.address))
      .execute();
  }

  /** Deletes counts whose window and lock are both over, now and then. */
  #prune(): void {
    const now = Date.now();
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    const windowSecs = Math.max(0, this.opts.windowMs) / 1000;
    void sql`
      delete from sys_login_guard
      where (locked_until is null or locked_until <= now())
        and (window_start is null or window_start <= now() - make_interval(secs => ${windowSecs}))
    `
      .execute(this.db)
      .catch(() => {});
  }
}

/** One guard per server: its dummy hash is made once. */
const guards = new WeakMap<object, LoginGuard>();

/** The login guard of this server, with its configured lock. */
export function loginGuard(ctx: AppContext): LoginGuard {
  let guard = guards.get(ctx.instance);
  if (!guard) {
    const { config, db } = ctx.instance.home ?? ctx;
    guard = new LoginGuard(db, { failures: config.loginLockFailures, windowMs: config.loginLockWindowMs, lockMs: config.loginLockMs });
    guards.set(ctx.instance, guard);
  }
  return guard;
}

/** Runs a call that checks a password; a lock's 429 tells when to try again in Retry-After too. */
export async function answeringLock<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AccountLocked) reply.header('retry-after', Math.ceil(e.ms / 1000));
    throw e;
  }
}
