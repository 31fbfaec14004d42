/**
 * Accounts and roles made through the administrator's API, as a test's attacker or manager: each
 * account with its own phone number, its password marked as set (so it may log in at once), and
 * logged in.
 */
import { expect } from 'vitest';
import type { ApiClient, TestServer } from './server.js';

export interface MadeAccount {
  id: number;
  api: ApiClient;
}

/** An account's id by its username (sockets and notices are the account's, by id). */
export async function accountId(server: TestServer, username: string): Promise<number> {
  return (await server.ctx.db.selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
}

/** Makers bound to a server and its administrator (a getter: the client exists once the server has started). */
export function accountMaker(server: () => TestServer, admin: () => ApiClient, phonePrefix: string) {
  let seq = 0;
  /** A phone number no other account of this maker has. */
  const phone = () => `${phonePrefix}${String(++seq).padStart(4, '0')}`;
  return {
    phone,
    async account(username: string, deptId: number, companyId: number | null, roleIds: number[]): Promise<MadeAccount> {
      const made = await admin().post('/api/users', {
        username,
        nickName: username,
        phone: phone(),
        deptId,
        companyId,
        roles: roleIds.map((id) => ({ id })),
      });
      expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
      await server().ctx.db.updateTable('sys_user').set({ pwd_reset_time: new Date() }).where('id', '=', made.body.id).execute();
      return { id: made.body.id as number, api: await server().login(username) };
    },
    async role(name: string, menus: number[], dataScope = '本企业', companyId: number | null = null, level = 3): Promise<number> {
      const made = await admin().post('/api/roles', { name, level, dataScope, companyId, menus: menus.map((id) => ({ id })) });
      expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
      return made.body.id as number;
    },
  };
}
