import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { BigScreenModel } from '../../src/model/index.js';
import { normalizeDefinition } from '../../src/model/index.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound, refusal } from '../errors.js';

/**
 * Signed share links of big screens. A link is
 * `/lsPreview?lsId={id}&accessKey={key}&timestamp={expiry ms}&signature={hex}`, the signature being
 * HMAC-SHA256 with a secret that never leaves the server, over the sorted `key=value` pairs of lsId,
 * accessKey and timestamp. A link answers while its signature is right, its expiry is ahead, and its
 * access key is the screen's current one: renewing the key revokes every link made with the old one.
 */

export const SHARE_MIN_SECONDS = 60;
export const SHARE_MAX_SECONDS = 365 * 24 * 60 * 60;

/** 192 random bits, URL-safe. */
export const newAccessKey = (): string => randomBytes(24).toString('base64url');

export interface ShareParams {
  lsId: number;
  accessKey: string;
  /** Expiry, epoch milliseconds. */
  timestamp: number;
}

export function shareSignature(secret: Uint8Array, p: ShareParams): string {
  const text = [`accessKey=${p.accessKey}`, `lsId=${p.lsId}`, `timestamp=${p.timestamp}`].join('&');
  return createHmac('sha256', secret).update(text).digest('hex');
}

export function shareUrl(secret: Uint8Array, p: ShareParams): string {
  const q = new URLSearchParams({
    lsId: String(p.lsId),
    accessKey: p.accessKey,
    timestamp: String(p.timestamp),
    signature: shareSignature(secret, p),
  });
  return `/lsPreview?${q.toString()}`;
}

const first = (v: unknown): string | undefined => {
  const x = Array.isArray(v) ? v[0] : v;
  return typeof x === 'string' && x !== '' ? x : undefined;
};

/**
 * Reads and checks a share link's parameters from a request's query (`lsId`, or `id` as the open
 * calls also name it). Throws 401 for a malformed, forged or expired link, 403 for a revoked one,
 * 404 for a screen that is gone.
 */
export async function verifyShare(
  ctx: AppContext,
  query: Record<string, unknown>,
  now = Date.now(),
): Promise<{ id: number; status: number; type: number; name: string; dis_template: string | null; dis_menu: string | null }> {
  const idText = first(query.lsId) ?? first(query.id);
  const accessKey = first(query.accessKey);
  const timestampText = first(query.timestamp);
  const signature = first(query.signature);
  const lsId = Number(idText);
  const timestamp = Number(timestampText);
  if (!idText || !/^\d{1,10}$/.test(idText) || !accessKey || !timestampText || !/^\d{1,16}$/.test(timestampText) || !signature) {
    throw refusal(401, 'SHARE_INVALID');
  }
  const expected = Buffer.from(shareSignature(ctx.secrets.shareSecret, { lsId, accessKey, timestamp }), 'hex');
  const given = /^[0-9a-fA-F]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refusal(401, 'SHARE_INVALID');
  if (timestamp <= now) throw refusal(401, 'SHARE_EXPIRED');
  const row = await ctx.db
    .selectFrom('lc_screen')
    .select(['id', 'status', 'type', 'name', 'dis_template', 'dis_menu', 'access_key'])
    .where('id', '=', lsId)
    .executeTakeFirst();
  if (!row) throw notFound('SCREEN_NOT_FOUND');
  const current = row.access_key ? Buffer.from(row.access_key) : Buffer.alloc(0);
  const carried = Buffer.from(accessKey);
  if (current.length !== carried.length || !timingSafeEqual(current, carried)) throw refusal(403, 'SHARE_REVOKED');
  const { access_key: _, ...screen } = row;
  return screen;
}

/** The big-screen model of a stored template, read by the one definition reader; undefined when it has none. */
export function bigScreenOf(row: {
  id: number;
  status: number;
  type: number;
  name: string;
  dis_template: string | null;
}): BigScreenModel | undefined {
  if (row.type !== 2 || !row.dis_template) return undefined;
  const r = normalizeDefinition({
    kind: 'screen',
    file: 'screen',
    json: { id: row.id, name: row.name, type: row.type, status: row.status, disTemplate: row.dis_template },
  });
  return r.page?.kind === 'bigScreen' ? r.page : undefined;
}

/** Data views the screen's charts read. */
export function dataViewsOf(model: BigScreenModel | undefined): Set<number> {
  const ids = new Set<number>();
  for (const item of model?.layout ?? []) for (const chart of item.charts) if (chart.dataViewId !== undefined) ids.add(chart.dataViewId);
  return ids;
}

/** The data view behind the screen's city-transaction chart, if it has one. */
export function cityDataViewOf(model: BigScreenModel | undefined): number | undefined {
  for (const item of model?.layout ?? []) {
    for (const chart of item.charts) if (chart.kind === 'cityTransaction' && chart.dataViewId !== undefined) return chart.dataViewId;
  }
  return undefined;
}

/** Reads `expiresIn` (seconds) of a share request. */
export function expiresInOf(v: unknown): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw badRequest('SHARE_SECONDS_NOT_WHOLE');
  if (n < SHARE_MIN_SECONDS || n > SHARE_MAX_SECONDS) {
    throw badRequest('SHARE_SECONDS_RANGE', { min: SHARE_MIN_SECONDS, maxDays: SHARE_MAX_SECONDS / 86400 });
  }
  return n;
}
