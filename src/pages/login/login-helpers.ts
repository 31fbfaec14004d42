/**
 * Pure pieces of the public session pages (login, apply-to-join), kept apart from the components
 * so they can be unit-tested without a DOM.
 */
import { getCookie, setCookie } from '../../settings/cookies';

/** Only same-origin paths: a crafted `redirect=//evil.example` or `/\evil.example` must not send the user away. */
export function safeRedirect(value: string | null | undefined, fallback = '/'): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // Control characters (a tab or newline inside `/\t/evil`) are dropped by URL parsers; refuse them outright.
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) < 0x20) return fallback;
  return value;
}

/**
 * How long "记住我" remembers the account name. Set VITE_REMEMBER_ME_DAYS when building; the password itself is never stored.
 */
export const DEFAULT_REMEMBER_ME_DAYS = 7;

export function rememberMeDays(configured: unknown = import.meta.env.VITE_REMEMBER_ME_DAYS): number {
  const days = Number(configured);
  return Number.isFinite(days) && days > 0 ? days : DEFAULT_REMEMBER_ME_DAYS;
}

const USERNAME_COOKIE = 'username';

export function rememberedUsername(): string {
  return getCookie(USERNAME_COOKIE) ?? '';
}

/** Remembers the account name for the configured days, or forgets it (null). */
export function rememberUsername(username: string | null): void {
  if (username) setCookie(USERNAME_COOKIE, username, Math.round(rememberMeDays() * 24 * 3600));
  else setCookie(USERNAME_COOKIE, '', 0);
}

/** The message of a failed call (the request layer puts the server's message there), else the fallback. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** 11 digits, 1 then 3-9 (the apply-to-join form; the server checks the same). */
export const APPLY_PHONE = /^1[3-9]\d{9}$/;

/** Where an application to join comes from. */
export const APPLY_SOURCE = 2;

export interface RegionOption {
  value: string;
  label: string;
  children?: RegionOption[];
}

export interface ApplyValues {
  name: string;
  type: string;
  region: string[];
  applicant: string;
  phone: string;
  code: string;
}

/** What the apply call takes (companyApplications.calls.apply of the contract). */
export interface ApplyPayload {
  name: string;
  type: string;
  comtype: string;
  region: string;
  regionFmt: string;
  applicant: string;
  phone: string;
  source: number;
  code: string;
  uuid: string;
}

/** Labels along a value path of the region tree (the cascader's picked path). */
export function regionLabels(tree: readonly RegionOption[], path: readonly string[]): string[] {
  const labels: string[] = [];
  let level: readonly RegionOption[] | undefined = tree;
  for (const value of path) {
    const node: RegionOption | undefined = level?.find((o) => o.value === value);
    if (!node) break;
    labels.push(node.label);
    level = node.children;
  }
  return labels;
}

/** The apply form as the server wants it: region codes joined by commas, `regionFmt` by `/`, the type's label as comtype. */
export function applyPayload(
  values: ApplyValues,
  typeOptions: readonly { value: string; label: string }[],
  tree: readonly RegionOption[],
  uuid: string,
): ApplyPayload {
  return {
    name: values.name.trim(),
    type: values.type,
    comtype: typeOptions.find((t) => t.value === values.type)?.label ?? '',
    region: values.region.join(','),
    regionFmt: regionLabels(tree, values.region).join('/'),
    applicant: values.applicant.trim(),
    phone: values.phone.trim(),
    source: APPLY_SOURCE,
    code: values.code.trim(),
    uuid,
  };
}
