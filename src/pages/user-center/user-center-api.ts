/** The personal centre's calls, typed for its components. */

import type { LogEntry } from '../../contract/logs';
import { passwords } from '../../contract/passwords';
import { session } from '../../contract/session';
import { users } from '../../contract/users';
import { visits } from '../../contract/visits';
import { api } from '../../request';
import { encryptPassword } from '../../session/encrypt-password';
import { fetchPublicKey } from '../../session/session-api';
import type { UserRow } from '../admin/system/api';

/** GET /api/auth/info's user, with the fields the personal centre shows. */
export type CenterUser = Pick<UserRow, 'id' | 'username' | 'nickName' | 'phone' | 'email' | 'sex' | 'dept' | 'job' | 'createTime'> & {
  avatar: string | null;
};

export type LogRow = LogEntry;

export interface CityCount {
  code: string;
  name: string;
  companies: number;
}

export interface VisitChart {
  weekDays: string[];
  visitsData: number[];
  ipData: number[];
}

interface Answer {
  status?: number;
  message?: string;
}

export async function fetchCenterUser(): Promise<CenterUser> {
  const r = await api(session.calls.info);
  return r.user;
}

export function saveProfile(values: { id: number; nickName: string; phone: string; sex: string | null }): Promise<Answer> {
  return api(users.calls.saveProfile, { body: values }, { silent: true });
}

export function uploadAvatar(file: File): Promise<Answer & { avatar?: string }> {
  const body = new FormData();
  body.append('avatar', file, file.name);
  return api(users.calls.changeAvatar, { body }, { silent: true });
}

export function sendEmailCode(email: string): Promise<Answer> {
  return api(passwords.calls.sendEmailCode, { body: { type: 'email', value: email } }, { silent: true });
}

/** The current password travels RSA-encrypted, as every password does. */
export async function updateEmail(values: { email: string; pass: string; code: string }): Promise<Answer> {
  const key = await fetchPublicKey();
  const pass = await encryptPassword(key, values.pass);
  return api(
    users.calls.changeEmail,
    { params: { code: values.code.trim() }, body: { email: values.email.trim(), pass } },
    { silent: true },
  );
}

export function fetchCities(): Promise<{ province: { code: string; name: string } | null; cities: CityCount[] }> {
  return api(users.calls.centerCities);
}

export function fetchVisitChart(): Promise<VisitChart> {
  return api(visits.calls.chart);
}

export function fetchVisitTotals(): Promise<{ newIp: number; newVisits: number; recentIp: number; recentVisits: number }> {
  return api(visits.calls.summary);
}

/** The server's message of a refusal, for forms that show it themselves. */
export function messageOf(e: unknown, fallback = '操作失败'): string {
  return e instanceof Error && e.message ? e.message : fallback;
}
