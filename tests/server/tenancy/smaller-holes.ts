import { type Kysely, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configFromEnv } from '../../../server/config.js';
import { migrations } from '../../../server/db/migrations/index.js';
import { messageHtml } from '../../../server/lib/message-html.js';
import { USER } from '../../../server/seed/accounts.js';
import { COMPANY } from '../../../server/seed/ids.js';
import { accountId } from '../../helpers/accounts.js';
import { refusal } from '../../helpers/refusal.js';
import { type ApiClient, DEMO_PASSWORD, startTestServer, TEST_CAPTCHA, type TestServer } from '../../helpers/server.js';
import { Client, type Pushed } from '../../helpers/ws-client.js';

/**
 * Requests ordinary accounts sent to get what they may not, each sent again here and refused: sockets of
 * pending accounts, company codes differing in case, open uploads, unlimited old-password guesses,
 * telling receivers apart by the answer, label codes for anyone, links in system messages, and locking
 * an account out for everyone. The server believes X-Forwarded-For (TRUST_PROXY) so that requests can
 * come from several addresses.
 */
export function smallerHoles(): void {
  const defaults = configFromEnv({});
  const LOCKED = `密码错误次数过多，账号已锁定，请 ${Math.ceil(defaults.loginLockMs / 60_000)} 分钟后再试`;
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const LINK = '<a href="https://evil.example/">点我领奖</a><img src="https://evil.example/x.png">';
  const LINK_AS_TEXT =
    '&lt;a href=&quot;https://evil.example/&quot;&gt;点我领奖&lt;/a&gt;&lt;img src=&quot;https://evil.example/x.png&quot;&gt;';

  let server: TestServer;
  let db: TestServer['ctx']['db'];
  const sockets: Client[] = [];

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: true });
    db = server.ctx.db;
  });
  afterAll(() => server?.close());
  afterEach(() => {
    for (const c of sockets.splice(0)) c.ws.close();
  });

  const from = (address: string) => ({ 'x-forwarded-for': address });

  /** A login through the real captcha and login calls, from an address. */
  async function attempt(username: string, password: string, address = '127.0.0.1') {
    const api = server.api;
    const cap = await api.get('/api/auth/code');
    return api.request('POST', '/api/auth/login', {
      form: { username, password: await api.encrypt(password), code: TEST_CAPTCHA, uuid: String(cap.body.uuid) },
      headers: from(address),
    });
  }

  function connect(username: string, token: string | null) {
    const url = new URL(`/websocket/${username}`, server.url.replace(/^http/, 'ws'));
    if (token) url.searchParams.set('token', token);
    const c = new Client(url.toString());
    sockets.push(c);
    return c;
  }

  describe('the websocket follows the pending states', () => {
    it('refuses a socket to a password-expired or agreement-pending account with 4403, delivering nothing', async () => {
      const expired = await server.login('expired');
      const newcomer = await server.api.loginRaw('newcomer', DEMO_PASSWORD);
      expect(newcomer.body.status).toBe(10001);
      for (const [username, token] of [
        ['expired', expired.token],
        ['newcomer', newcomer.body.token as string],
      ] as const) {
        const c = connect(username, token);
        expect(await c.closed, username).toBe(4403);
        expect(c.messages, username).toEqual([]);
        expect(server.ctx.realtime.connected(await accountId(server, username))).toBe(0);
      }
      // The session itself lives on for the calls that resolve the state.
      expect((await expired.get('/api/auth/info')).status).toBe(200);
    });

    it('closes with 4403 the socket of an account that became pending, and the leave messages after it reach no socket', async () => {
      const disposer = await server.login('disposer');
      const producer = await server.login('producer');
      const c = connect('disposer', disposer.token);
      await c.waitFor((m) => m?.flag === 'unread');
      const before = await db.selectFrom('sys_user').select('pwd_reset_time').where('username', '=', 'disposer').executeTakeFirstOrThrow();
      await db
        .updateTable('sys_user')
        .set({ pwd_reset_time: sql<Date>`now() - interval '91 days'` })
        .where('username', '=', 'disposer')
        .execute();
      try {
        await server.ctx.realtime.check();
        expect(await c.closed).toBe(4403);
        expect(server.ctx.realtime.connected(USER.disposer)).toBe(0);
        expect((await producer.post('/api/leaveMessage', { content: '过期之后的留言', reception: 'disposer' })).status).toBe(200);
        expect(c.messages.some((m) => (m as Pushed)?.flag === 'leaveMessage')).toBe(false);
        // And it cannot open a new one.
        expect(await connect('disposer', disposer.token).closed).toBe(4403);
      } finally {
        await db.updateTable('sys_user').set({ pwd_reset_time: before.pwd_reset_time }).where('username', '=', 'disposer').execute();
      }
    });

    it('sends no notice to a socket whose password aged out since it opened, and closes it with 4403', async () => {
      const supervisor = await server.login('supervisor');
      const c = connect('supervisor', supervisor.token);
      await c.waitFor((m) => m?.flag === 'unread');
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 91 * 86_400_000 });
      try {
        server.ctx.realtime.push(USER.supervisor, {
          sender: 'x',
          reception: 'supervisor',
          body: { noticeInfo: '不该收到' },
          flag: 'sysMessage',
        });
      } finally {
        vi.useRealTimers();
      }
      expect(server.ctx.realtime.connected(USER.supervisor)).toBe(0);
      expect(await c.closed).toBe(4403);
      expect(c.messages.some((m) => (m as Pushed)?.flag === 'sysMessage')).toBe(false);
    });
  });

  describe('company codes are compared without case', () => {
    it('refuses a bciId or credit code another company holds in another case', async () => {
      const producer = await server.login('producer');
      const disposerCo = await db
        .selectFrom('company')
        .select(['bci_id', 'credit_code'])
        .where('id', '=', COMPANY.disposer)
        .executeTakeFirstOrThrow();
      const bci = String(disposerCo.bci_id);
      for (const code of [bci.toLowerCase(), String(disposerCo.credit_code).toLowerCase()]) {
        const r = await producer.post('/api/companyApi/update', { bciId: code });
        expect(r.status, code).toBe(400);
        expect(r.body).toEqual(refusal(400, 'BCI_ID_TAKEN'));
      }
      // The index refuses it too, whoever writes.
      await expect(
        db.updateTable('company').set({ bci_id: bci.toLowerCase() }).where('id', '=', COMPANY.producer).execute(),
      ).rejects.toMatchObject({
        code: '23505',
      });
    });

    it('finds the company of the filling-system token and of an effective contract by a code in any case', async () => {
      const producer = await server.login('producer');
      const own = await db
        .selectFrom('company')
        .select(['bci_id', 'credit_code'])
        .where('id', '=', COMPANY.producer)
        .executeTakeFirstOrThrow();
      const token = await producer.get('/api/guFeiUrl/getTokenByCompayCode', { companyCode: String(own.bci_id).toLowerCase() });
      expect(token.body.code).toBe('00000');
      const disposer = await server.login('disposer');
      const byId = await disposer.get('/api/disposalOrder/effectiveContract', { partyACompany: COMPANY.producer });
      const byCode = await disposer.get('/api/disposalOrder/effectiveContract', { partyACompany: String(own.credit_code).toLowerCase() });
      expect(byId.body.data.length).toBeGreaterThan(0);
      expect(byCode.body).toEqual(byId.body);
    });

    it('migration 0024 stops with the codes that differ only in case, changing nothing', async () => {
      const migration = migrations['0024_company_codes_nocase'];
      if (!migration) throw new Error('migration 0024_company_codes_nocase is not registered');
      const raw = db as unknown as Kysely<unknown>;
      await migration.down?.(raw);
      const made = await db
        .insertInto('company')
        .values([
          { name: '大小写企业甲', type: '1', bci_id: 'CASE-ONLY-01' },
          { name: '大小写企业乙', type: '1', bci_id: 'case-only-01' },
        ])
        .returning('id')
        .execute();
      const ids = made.map((r) => r.id);
      try {
        await expect(migration.up(raw)).rejects.toThrow(
          /企业编号（bciId）仅大小写不同.*CASE-ONLY-01.*case-only-01|case-only-01.*CASE-ONLY-01/,
        );
        const codes = await db.selectFrom('company').select('bci_id').where('id', 'in', ids).orderBy('id').execute();
        expect(codes.map((c) => c.bci_id)).toEqual(['CASE-ONLY-01', 'case-only-01']);
      } finally {
        await db.deleteFrom('company').where('id', 'in', ids).execute();
      }
      await migration.up(raw);
      await db.insertInto('company').values({ name: '大小写企业丙', type: '1', bci_id: 'CASE-ONLY-02' }).execute();
      await expect(
        db.insertInto('company').values({ name: '大小写企业丁', type: '1', bci_id: 'Case-Only-02' }).execute(),
      ).rejects.toMatchObject({
        code: '23505',
      });
      await db.deleteFrom('company').where('bci_id', '=', 'CASE-ONLY-02').execute();
    });
  });

  describe('open uploads', () => {
    const upload = (client: ApiClient, open: boolean) => {
      const form = new FormData();
      form.append('columnName', 'remark');
      if (open) form.append('open', '1');
      form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'photo.png');
      return client.request('POST', '/api/file/upload', { body: form });
    };
    const files = async () =>
      Number(
        (
          await db
            .selectFrom('file_record')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('refuses open=1 to an account that publishes no public content, storing nothing', async () => {
      for (const username of ['producer', 'supervisor', 'guest']) {
        const client = await server.login(username);
        const before = await files();
        const r = await upload(client, true);
        expect(r.status, username).toBe(403);
        expect(r.body).toEqual(refusal(403, 'OPEN_UPLOAD_DENIED'));
        expect(await files()).toBe(before);
        // Its private uploads go on, and are not served without a session.
        const own = await upload(client, false);
        expect(own.status).toBe(200);
        expect((await fetch(`${server.url}/api/open/image?source=${encodeURIComponent(own.body.filePath)}`)).status).toBe(404);
      }
    });

    it('lets the designer of big screens upload an open picture, served without a session', async () => {
      const admin = await server.login('admin');
      const r = await upload(admin, true);
      expect(r.status).toBe(200);
      expect((await fetch(`${server.url}/api/open/image?source=${encodeURIComponent(r.body.filePath)}`)).status).toBe(200);
    });
  });

  describe('old passwords share the login lock', () => {
    // The session's calls come from an address of their own, so the lock they earn holds there only.
    const desk = '192.0.2.50';
    const updatePass = async (client: ApiClient, oldPassword: string) =>
      client.request('POST', '/api/users/updatePass', {
        form: { oldPass: await client.encrypt(oldPassword), newPass: await client.encrypt('Changed@2026x') },
        headers: from(desk),
      });

    it('counts wrong old passwords as failed logins and refuses the locked account’s old-password check as the login is', async () => {
      const me = await server.login('logistics');
      for (let i = 0; i < defaults.loginLockFailures - 1; i++)
        expect((await updatePass(me, 'Wrong@2026')).body).toEqual(refusal(400, 'OLD_PASSWORD_WRONG'));
      const fifth = await updatePass(me, 'Wrong@2026');
      expect(fifth.status).toBe(429);
      expect(fifth.body).toMatchObject({ status: 429, code: 'ACCOUNT_LOCKED', message: LOCKED });
      expect(Number(fifth.headers.get('retry-after'))).toBeGreaterThan(0);
      // The right old password is refused now, on both password forms, and so is the login from that address.
      expect((await updatePass(me, DEMO_PASSWORD)).body).toMatchObject({ status: 429, message: LOCKED });
      const save = await me.request('POST', '/api/pwd/save', {
        form: {
          oldPass: await me.encrypt(DEMO_PASSWORD),
          newPass: await me.encrypt('Changed@2026x'),
          confirmPass: await me.encrypt('Changed@2026x'),
        },
        headers: from(desk),
      });
      expect(save.body).toMatchObject({ status: 429, message: LOCKED });
      expect((await attempt('logistics', DEMO_PASSWORD, desk)).body).toMatchObject({ status: 429, message: LOCKED });
      // The password did not change, and its owner elsewhere signs in with it.
      expect((await attempt('logistics', DEMO_PASSWORD)).body.status).toBe(200);
    });

    it('counts the password of an e-mail change the same way', async () => {
      const me = await server.login('collector');
      const changeEmail = async (password: string) =>
        me.request('POST', '/api/users/updateEmail/000000', {
          json: { pass: await me.encrypt(password), email: 'new-collector@example.com' },
          headers: from(desk),
        });
      for (let i = 0; i < defaults.loginLockFailures - 1; i++)
        expect((await changeEmail('Wrong@2026')).body).toEqual(refusal(400, 'PASSWORD_WRONG'));
      expect((await changeEmail('Wrong@2026')).body).toMatchObject({ status: 429, message: LOCKED });
      expect((await changeEmail(DEMO_PASSWORD)).body).toMatchObject({ status: 429, message: LOCKED });
      expect((await attempt('collector', DEMO_PASSWORD, desk)).body).toMatchObject({ status: 429, message: LOCKED });
    });
  });

  describe('leave messages tell nothing of their receivers', () => {
    it('answers an unknown or inactive receiver exactly as a known one, storing the message for the known one only', async () => {
      const producer = await server.login('producer');
      const stored = async () =>
        Number(
          (
            await db
              .selectFrom('leave_message')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      await db.updateTable('sys_user').set({ status: 1 }).where('username', '=', 'newcomer').execute();
      try {
        const before = await stored();
        const known = await producer.post('/api/leaveMessage', { content: '你好', reception: 'disposer' });
        expect(known.status).toBe(200);
        expect(known.body).toEqual({ status: 200, message: '留言成功', data: { reception: 'disposer' } });
        expect(await stored()).toBe(before + 1);
        for (const reception of ['no-such-user', 'newcomer']) {
          const r = await producer.post('/api/leaveMessage', { content: '你好', reception });
          expect(r.status, reception).toBe(known.status);
          expect(r.body, reception).toEqual({ ...known.body, data: { reception } });
          expect([...r.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
        }
        expect(await stored()).toBe(before + 1);
      } finally {
        await db.updateTable('sys_user').set({ status: 0 }).where('username', '=', 'newcomer').execute();
      }
    });
  });

  describe('leave messages too long for a database notice', () => {
    it('are stored and pushed here in full, the other instances told without the text', async () => {
      const producer = await server.login('producer');
      const disposer = await server.login('disposer');
      const c = connect('disposer', disposer.token);
      await c.waitFor((m) => m?.flag === 'unread');
      // 1024 control characters: each is six bytes in the notice's JSON, past what NOTIFY carries.
      const content = `提醒${'\u0001'.repeat(1022)}`;
      const r = await producer.post('/api/leaveMessage', { content, reception: 'disposer' });
      expect(r.body).toEqual({ status: 200, message: '留言成功', data: { reception: 'disposer' } });
      const pushed = await c.waitFor<Pushed>((m) => m?.flag === 'leaveMessage' && m?.body?.content === content);
      expect(pushed.body.noticeInfo).toBe('您有一条新留言');
    });
  });

  describe('label codes are made by label printers only, a sheet at a time', () => {
    const made = async () =>
      Number(
        (
          await db
            .selectFrom('materials_code')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('refuses saveBatch to accounts without the 打印二维码 page, inserting nothing', async () => {
      for (const username of ['logistics', 'supervisor', 'guest']) {
        const client = await server.login(username);
        const before = await made();
        const r = await client.get('/api/materialsCode/saveBatch', { createNum: 500 });
        expect(r.status, username).toBe(403);
        expect(r.body).toEqual(refusal(403, 'NO_PERMISSION'));
        expect(await made()).toBe(before);
      }
    });

    it('caps one call at the sheet the print page makes, with a clear message', async () => {
      const producer = await server.login('producer');
      const before = await made();
      const over = await producer.get('/api/materialsCode/saveBatch', { createNum: 501 });
      expect(over.status).toBe(400);
      expect(over.body.code).toBe('INVALID_INPUT');
      expect(over.body.message).toContain('一次最多生成500个');
      expect(await made()).toBe(before);
      const ok = await producer.get('/api/materialsCode/saveBatch', { createNum: 3 });
      expect(ok.body.data).toHaveLength(3);
    });

    it('migration 0025 gives the print page its permission on a database seeded without it', async () => {
      const migration = migrations['0025_label_print_permission'];
      if (!migration) throw new Error('migration 0025_label_print_permission is not registered');
      const raw = db as unknown as Kysely<unknown>;
      const page = () => db.selectFrom('sys_menu').select('permission').where('component', '=', 'qrcode/print').executeTakeFirstOrThrow();
      expect((await page()).permission).toBe('qrcode:print');
      await migration.down?.(raw);
      expect((await page()).permission).toBeNull();
      await migration.up(raw);
      expect((await page()).permission).toBe('qrcode:print');
    });
  });

  describe('system messages show what users wrote as text', () => {
    const newest = (username: string) =>
      db
        .selectFrom('sys_message as m')
        .innerJoin('sys_user as u', 'u.id', 'm.user_id')
        .select(['m.title', 'm.content'])
        .where('u.username', '=', username)
        .orderBy('m.id', 'desc')
        .executeTakeFirstOrThrow();

    it('escapes a testing application’s text in the disposer’s message, and pushes its title as plain text', async () => {
      const producer = await server.login('producer');
      const disposer = await server.login('disposer');
      const c = connect('disposer', disposer.token);
      await c.waitFor((m) => m?.flag === 'unread');
      const r = await producer.post('/api/dispoaslTestingApplication/apply', {
        disposerCompanyId: COMPANY.disposer,
        wasteCategoryCode: '900-249-08',
        wasteName: LINK,
        linkman: '<b>王丽华</b>',
        phone: '13862100003',
      });
      expect(r.body.status).toBe(200);
      const message = await newest('disposer');
      expect(message.content).toBe(`${LINK_AS_TEXT}（900-249-08），联系人&lt;b&gt;王丽华&lt;/b&gt; 13862100003`);
      expect(message.content).not.toMatch(/<[a-z]/i);
      const pushed = await c.waitFor<Pushed>((m) => m?.flag === 'sysMessage');
      expect(pushed.body.noticeInfo).toBe(message.title);
    });

    it('escapes an applicant’s company name in the message of its approval', async () => {
      const uuid = String((await server.api.get('/api/auth/code')).body.uuid);
      const name = `${LINK}环保公司`;
      const applied = await server.api.post('/api/companyApplication/insert', {
        name,
        type: '1',
        region: '320000,320100,320113',
        applicant: '申请人',
        phone: '13900009999',
        code: TEST_CAPTCHA,
        uuid,
      });
      // Markup is no letter a company name is written in: the application is refused.
      expect(applied.body).toMatchObject({ status: 400, code: 'COMPANY_NAME_LETTERS' });
      // One stored before that rule is still approved, and its name reaches the message as text.
      const appl = await db
        .insertInto('company_application')
        .values({
          name,
          type: '1',
          comtype: '产废单位',
          region: '320000,320100,320113',
          region_fmt: '江苏省/南京市/栖霞区',
          applicant: '申请人',
          phone: '13900009999',
          source: 2,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const admin = await server.login('admin');
      const approved = await admin.post('/api/companyApplication/approve', { id: appl.id, username: 'escaped-co', roles: [{ id: 3 }] });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      const message = await newest('escaped-co');
      expect(message.content).toContain(`您的企业“${LINK_AS_TEXT}环保公司”入驻申请已审核通过`);
      expect(message.content).not.toMatch(/<[a-z]/i);
    });

    it('keeps the platform’s own markup of a message while escaping every value put into it', () => {
      expect(messageHtml`<a href="/message/systemMessage">查看</a>${LINK}`).toBe(
        `<a href="/message/systemMessage">查看</a>${LINK_AS_TEXT}`,
      );
    });
  });

  describe('the login lock counts per account and address', () => {
    it('locks an account for the address that guessed, never for its owner elsewhere', async () => {
      const guesser = '203.0.113.7';
      for (let i = 0; i < defaults.loginLockFailures - 1; i++)
        expect((await attempt('admin', 'Wrong@2026', guesser)).body).toEqual(refusal(400, 'LOGIN_FAILED'));
      expect((await attempt('admin', 'Wrong@2026', guesser)).body).toMatchObject({ status: 429, message: LOCKED });
      // The guessing address gets no more guesses, not even the right password.
      expect((await attempt('admin', DEMO_PASSWORD, guesser)).body).toMatchObject({ status: 429, message: LOCKED });
      // The administrator, elsewhere, signs in.
      expect((await attempt('admin', DEMO_PASSWORD, '198.51.100.4')).body.status).toBe(200);
      expect((await attempt('admin', DEMO_PASSWORD)).body.status).toBe(200);
      // And still the guesser does not.
      expect((await attempt('admin', DEMO_PASSWORD, guesser)).body).toMatchObject({ status: 429, message: LOCKED });
    });

    it('treats an unknown username the same way', async () => {
      const guesser = '203.0.113.8';
      for (let i = 0; i < defaults.loginLockFailures - 1; i++)
        expect((await attempt('no-such-admin', 'Wrong@2026', guesser)).body).toEqual(refusal(400, 'LOGIN_FAILED'));
      expect((await attempt('no-such-admin', 'Wrong@2026', guesser)).body).toMatchObject({ status: 429, message: LOCKED });
      expect((await attempt('no-such-admin', 'Wrong@2026', '198.51.100.5')).body).toEqual(refusal(400, 'LOGIN_FAILED'));
    });
  });
}
