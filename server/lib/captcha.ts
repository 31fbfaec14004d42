import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import svgCaptcha, { type ConfigObject } from 'svg-captcha';
import type { DB } from '../db/schema.js';
import { badRequest } from '../errors.js';

// svg-captcha's CommonJS export is itself the renderer of a given text; its typings only declare the helpers.
const renderText = svgCaptcha as unknown as (text: string, options?: ConfigObject) => string;

const RENDER: ConfigObject = { width: 111, height: 36, fontSize: 40, noise: 2, color: true, background: '#f3f6fb' };
// Characters that look alike in the rendered font are left out.
const IGNORE = '0oO1ilI';

export interface CaptchaImage {
  img: string;
  uuid: string;
}

/**
 * A 4-character captcha valid for 2 minutes. `fixed` (CAPTCHA_FIXED) replaces the random text so
 * that tests and scripted logins can answer it; the image still shows what is stored.
 */
export async function issueCaptcha(db: Kysely<DB>, fixed: string | undefined): Promise<CaptchaImage> {
  const { text, data } = fixed
    ? { text: fixed, data: renderText(fixed, RENDER) }
    : svgCaptcha.create({ ...RENDER, size: 4, ignoreChars: IGNORE });
  const uuid = randomUUID();
  // Rows of abandoned login pages are swept here rather than by a timer.
  await db.deleteFrom('sys_captcha').where('expires_at', '<', sql<Date>`now()`).execute();
  await db.insertInto('sys_captcha').values({ uuid, code: text, expires_at: sql<Date>`now() + interval '2 minutes'` }).execute();
  return { img: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}`, uuid };
}

/** Checks and consumes a captcha: any attempt, right or wrong, uses it up. Case-insensitive. */
export async function consumeCaptcha(db: Kysely<DB>, uuid: string, code: string): Promise<void> {
  const row = await db
    .deleteFrom('sys_captcha')
    .where('uuid', '=', uuid.slice(0, 64))
    .returning(['code', sql<boolean>`expires_at > now()`.as('valid')])
    .executeTakeFirst();
  if (!row?.valid) throw badRequest('CAPTCHA_MISSING_OR_EXPIRED');
  if (row.code.toLowerCase() !== code.trim().toLowerCase()) throw badRequest('CAPTCHA_WRONG');
}
