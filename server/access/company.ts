import type { SessionUser } from '../auth.js';
import { forbidden } from '../errors.js';
import type { Scope } from '../lib/dashboard-facts.js';
import { SUPERVISOR_DEPT } from './scope.js';

/**
 * Company look-ups and figures by data scope: accounts of 全部 look across companies, everyone else at
 * its own company only.
 */

/** The supervisory department's accounts: platform accounts in the department of code 01. */
export const isSupervisor = (u: SessionUser) => u.deptCode === SUPERVISOR_DEPT && u.companyId === null;

/** A user of data scope 全部 (administrators, the supervisory department) looks across companies. */
export const seesAll = (u: SessionUser) => u.dataScope.all;

/**
 * Which company a look-up of company records (warehouses, linkmen) is about: the asked one for those who
 * see all (or none asked: every company, answered as null), otherwise always the user's own (undefined
 * when they have none).
 */
export function scopeCompany(u: SessionUser, asked: number | undefined): number | null | undefined {
  if (seesAll(u)) return asked ?? null;
  return u.companyId ?? undefined;
}

export function scopeOf(u: SessionUser): Scope {
  if (seesAll(u)) return { kind: 'all' };
  return u.companyId ? { kind: 'company', companyId: u.companyId } : { kind: 'none' };
}

export const scopeKey = (s: Scope) => (s.kind === 'company' ? `c${s.companyId}` : s.kind);

/** The caller's company: an account of none is refused what only a company's account may do. */
export function ownCompanyId(u: SessionUser): number {
  if (u.companyId === null || u.companyId === undefined) throw forbidden('NO_COMPANY');
  return u.companyId;
}

/** Lists about companies are for accounts of a company (which see their own) and those who see all. */
export function requireCompanyScope(u: SessionUser): SessionUser {
  if (!seesAll(u) && !u.companyId) throw forbidden('NO_COMPANY_DATA');
  return u;
}
