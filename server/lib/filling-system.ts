import { jwtVerify, SignJWT } from 'jose';
import type { AppContext } from '../context.js';

/**
 * Tokens of the environmental authority's filling system: issued by this server for one company, read
 * back by the authority (or this server's own stand-in of its pages) and by the entry agreement, which
 * takes one as proof of the account's company.
 */

/** A filling-system token lives this long. */
export const FILLING_TOKEN_MINUTES = 30;
const AUDIENCE = 'gufei';

/** A token for `companyId`, on behalf of `username`, about the company `subject` (its company id or credit code), expiring at `expiresAt` (ms). */
export const fillingSystemToken = (
  ctx: AppContext,
  claims: { companyId: number; username: string; subject: string; expiresAt: number },
): Promise<string> =>
  new SignJWT({ companyId: claims.companyId, username: claims.username })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.subject)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(claims.expiresAt / 1000))
    .sign(ctx.secrets.jwtSecret);

/** The company a filling-system token of this server was issued for, or null when it is none or has expired. */
export async function fillingSystemCompany(ctx: AppContext, token: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, ctx.secrets.jwtSecret, { algorithms: ['HS256'], audience: AUDIENCE });
    return typeof payload.companyId === 'number' ? payload.companyId : null;
  } catch {
    return null;
  }
}
