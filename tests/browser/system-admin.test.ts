import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { rowAction } from '../helpers/engine-page.js';
import { DEMO_PASSWORD, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

// The system administration pages against the real server: an administrator creates a role and a
// user, grants menus, reviews a company application and edits departments; the accounts made here
// then sign in through the login page.
let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

const NEW_PASSWORD = 'Fresh#2027';

const field = (scope: Page | Locator, placeholder: string) => scope.getByPlaceholder(placeholder, { exact: true });
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text);
const modal = (page: Page, title: string) =>
  page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
const formItem = (scope: Locator, label: string) =>
  scope.locator('.ant-form-item').filter({ has: scope.page().getByText(label, { exact: true }) });
const row = (page: Page, text: string) => page.locator('.ant-table-row').filter({ has: page.getByText(text, { exact: true }) });
/** A button by its text; antd puts a space between two Chinese characters of a filled button. */
const button = (scope: Page | Locator, text: string) => scope.getByRole('button', { name: new RegExp(`^${[...text].join('\\s*')}$`) });
const sidebar = (page: Page) => page.getByRole('navigation', { name: '侧边菜单' });

/** A page of the app signed in as `user` (a session of its own), opened at `path`. */
async function openAs(user: string, path: string): Promise<Page> {
  const token = (await server.login(user)).token;
  const { page } = await openPage(browser, server.url, { token });
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 500) console.error(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  await page.goto(path);
  await page.locator('.wg-navbar').waitFor();
  return page;
}

/** Picks an option of a form's multiple select by typing it and pressing Enter, then closes the list. */
async function pickOption(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  const item = formItem(scope, label);
  await item.locator('.ant-select').click();
  await item.locator('input').fill(option);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().waitFor();
  await item.locator('input').press('Enter');
  await item.locator('.ant-select-selection-item', { hasText: option }).first().waitFor();
  await scope.locator('.ant-modal-title').click();
}

async function confirmOk(page: Page): Promise<void> {
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /确\s*定/ })
    .click();
}

/**
 * Signs in through the login page with the default password: a new account must change it first
 * (the forced dialog), then signs in with the new one and lands on the home page.
 */
async function firstSignIn(username: string): Promise<Page> {
  const { page } = await openPage(browser, server.url);
  const submit = async (password: string) => {
    await page.locator('img[alt="验证码"]').waitFor();
    await field(page, '账号').fill(username);
    await field(page, '密码').fill(password);
    await field(page, '验证码').fill(TEST_CAPTCHA);
    await page.locator('button[type="submit"]').click();
  };
  await page.goto('/login');
  await submit(DEMO_PASSWORD);
  const change = modal(page, '修改密码');
  await change.waitFor();
  await field(page, '请输入旧密码').fill(DEMO_PASSWORD);
  await field(page, '请输入新密码').fill(NEW_PASSWORD);
  await field(page, '请再次输入密码').fill(NEW_PASSWORD);
  await change.getByRole('button', { name: '确认修改' }).click();
  await page.waitForURL((u) => u.pathname === '/login');
  await change.waitFor({ state: 'hidden' });
  await submit(NEW_PASSWORD);
  await page.locator('.wg-navbar').waitFor();
  return page;
}

/** The sidebar's entries: top-level titles, each directory opened to list its pages. */
async function sidebarEntries(page: Page): Promise<string[]> {
  const nav = sidebar(page);
  await nav.locator('.ant-menu-title-content').first().waitFor();
  const out: string[] = [];
  const tops = nav.locator('.ant-menu-root > li');
  for (let i = 0; i < (await tops.count()); i++) {
    const top = tops.nth(i);
    const title = (await top.locator('.ant-menu-title-content').first().innerText()).trim();
    out.push(title);
    if ((await top.locator('.ant-menu-submenu-title').count()) > 0) {
      if ((await top.locator('.ant-menu-sub').count()) === 0 || !(await top.locator('.ant-menu-sub').isVisible())) {
        await top.locator('.ant-menu-submenu-title').first().click();
      }
      await top.locator('.ant-menu-sub').waitFor();
      for (const t of await top.locator('.ant-menu-sub .ant-menu-title-content').allInnerTexts()) out.push(`${title} › ${t.trim()}`);
    }
  }
  return out;
}

/** Checks or unchecks a box of the role page's grant tree. */
async function grantBox(page: Page, title: string): Promise<Locator> {
  const node = page.locator('.sys-grant-tree .ant-tree-treenode').filter({ has: page.getByText(title, { exact: true }) });
  await node.waitFor();
  return node.locator('.ant-tree-checkbox');
}

describe('users and roles', () => {
  it('creates a role and a user with it; the user signs in and sees exactly the granted menus; a new grant appears at the next menu load', async () => {
    const admin = await openAs('admin', '/system/role');
    // A role granted 字典管理 (its page and buttons, with its directory).
    await button(admin, '新增').click();
    const roleDialog = modal(admin, '新增角色');
    await formItem(roleDialog, '角色名称').locator('input').fill('字典维护员');
    await formItem(roleDialog, '描述').locator('textarea').fill('维护数据字典');
    await roleDialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(admin, '新增成功').waitFor();
    await roleDialog.waitFor({ state: 'hidden' });
    await row(admin, '字典维护员').click();
    await admin.locator('.sys-side-title').getByText('菜单分配：字典维护员').waitFor();
    await (await grantBox(admin, '字典管理')).click();
    await admin.getByRole('button', { name: '保存授权' }).click();
    await toast(admin, '授权已保存，用户下次加载菜单时生效').waitFor();
    const roleId = (await server.ctx.db.selectFrom('sys_role').select('id').where('name', '=', '字典维护员').executeTakeFirstOrThrow()).id;
    const granted = await server.ctx.db
      .selectFrom('sys_roles_menus as rm')
      .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
      .select('m.title')
      .where('rm.role_id', '=', roleId)
      .orderBy('m.id')
      .execute();
    expect(granted.map((g) => g.title)).toEqual(['系统管理', '字典管理', '字典新增', '字典编辑', '字典删除']);

    // A user with that role.
    await admin.goto('/system/user');
    await button(admin, '新增').click();
    const userDialog = modal(admin, '新增用户');
    await formItem(userDialog, '用户名').locator('input').fill('dictkeeper');
    await formItem(userDialog, '昵称').locator('input').fill('字典维护');
    await formItem(userDialog, '电话').locator('input').fill('1380000');
    await formItem(userDialog, '邮箱').locator('input').fill('keeper@');
    await userDialog.getByRole('button', { name: /确\s*定/ }).click();
    // The specification's rules, at their fields.
    await expect
      .poll(() => userDialog.locator('.ant-form-item-explain-error').allTextContents())
      .toEqual(['请输入正确的11位手机号码', '电子邮箱格式不正确', '请选择角色']);
    await formItem(userDialog, '电话').locator('input').fill('13800001111');
    await formItem(userDialog, '邮箱').locator('input').fill('keeper@example.cn');
    await pickOption(admin, userDialog, '角色', '字典维护员');
    await userDialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(admin, '新增成功').waitFor();
    await row(admin, 'dictkeeper').waitFor();
    expect(await row(admin, 'dictkeeper').innerText()).toContain('字典维护员');

    // A refused add keeps the dialog and everything typed, with the server's message in it.
    await button(admin, '新增').click();
    await formItem(userDialog, '用户名').locator('input').fill('dictkeeper');
    await formItem(userDialog, '昵称').locator('input').fill('重复的账号');
    await formItem(userDialog, '电话').locator('input').fill('13800002222');
    await pickOption(admin, userDialog, '角色', '字典维护员');
    await userDialog.getByRole('button', { name: /确\s*定/ }).click();
    await userDialog.getByRole('alert').getByText('用户名已存在').waitFor();
    expect(await formItem(userDialog, '昵称').locator('input').inputValue()).toBe('重复的账号');
    expect(await formItem(userDialog, '电话').locator('input').inputValue()).toBe('13800002222');
    await userDialog.getByRole('button', { name: /取\s*消/ }).click();

    // The new user signs in (changing the default password first) and sees only what the role grants.
    const keeper = await firstSignIn('dictkeeper');
    expect(await sidebarEntries(keeper)).toEqual(['首页', '系统管理', '系统管理 › 字典管理']);
    await keeper.goto('/system/dict');
    await keeper.locator('[data-page="system-dict"]').waitFor();
    await button(keeper, '新增').waitFor();
    // A page the user was not granted is not opened: the refusal page says why.
    await keeper.goto('/system/user');
    await keeper.waitForURL((u) => u.pathname === '/401');
    expect(await keeper.locator('[data-page="system-user"]').count()).toBe(0);

    // Granting 用户管理 without its delete button: it appears at the next menu load, without 删除.
    await admin.goto('/system/role');
    await row(admin, '字典维护员').click();
    await (await grantBox(admin, '用户管理')).click();
    const userNode = admin.locator('.sys-grant-tree .ant-tree-treenode').filter({ has: admin.getByText('用户管理', { exact: true }) });
    await userNode.locator('.ant-tree-switcher').click();
    const del = await grantBox(admin, '用户删除');
    expect(await del.getAttribute('class')).toContain('ant-tree-checkbox-checked');
    await del.click();
    await admin.getByRole('button', { name: '保存授权' }).click();
    await toast(admin, '授权已保存，用户下次加载菜单时生效').waitFor();

    await keeper.goto('/abandonhome');
    await keeper.locator('.wg-navbar').waitFor();
    expect(await sidebarEntries(keeper)).toEqual(['首页', '系统管理', '系统管理 › 用户管理', '系统管理 › 字典管理']);
    await sidebar(keeper).getByText('用户管理', { exact: true }).click();
    await keeper.waitForURL((u) => u.pathname === '/system/user');
    await row(keeper, 'dictkeeper').waitFor();
    await button(keeper, '新增').waitFor();
    expect(await button(keeper, '删除').count()).toBe(0);
    // 编辑 in the row, 重置密码 under 更多; 删除 is not offered.
    const keeperRow = row(keeper, 'dictkeeper');
    expect(await button(keeperRow, '编辑').count()).toBe(1);
    await keeperRow.getByRole('button', { name: /更多/ }).click();
    const more = keeper.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
    await expect.poll(() => more.getByRole('menuitem').allInnerTexts()).toEqual(['重置密码']);
  }, 240_000);
});

describe('角色管理 at 1366×768', () => {
  it('shows every column header whole beside the menu tree, 操作 fixed on the right', async () => {
    const token = (await server.login('admin')).token;
    const { page } = await openPage(browser, server.url, { token, viewport: { width: 1366, height: 768 } });
    await page.goto('/system/role');
    const table = page.locator('[data-page="system-role"] .ant-table');
    await table.locator('.ant-table-row').first().waitFor();
    const headers = await table.locator('.ant-table-thead th').evaluateAll((cells) =>
      cells.map((th) => {
        const style = getComputedStyle(th);
        const room = th.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        const range = document.createRange();
        range.selectNodeContents(th);
        const box = th.getBoundingClientRect();
        return {
          title: (th.textContent ?? '').trim(),
          room,
          text: range.getBoundingClientRect().width,
          left: box.left,
          right: box.right,
          width: box.width,
          fixed: style.position === 'sticky',
        };
      }),
    );
    expect(headers.map((h) => h.title)).toEqual(['名称', '归属', '数据权限', '级别', '描述', '创建日期', '操作']);
    // Each header's text fits its cell.
    for (const h of headers) expect(h.text, h.title).toBeLessThanOrEqual(h.room + 0.5);
    // 操作 is fixed on the right; unscrolled, no header lies under it, and it ends within the table.
    const actions = headers.at(-1);
    expect(actions?.fixed).toBe(true);
    const edge = await table.locator('.ant-table-container').evaluate((el) => el.getBoundingClientRect().right);
    expect(actions?.right).toBeLessThanOrEqual(edge + 1);
    for (const h of headers.slice(0, -1)) expect(h.right, h.title).toBeLessThanOrEqual((actions?.left ?? 0) + 1);
    // The name and the description have room to be read, not squeezed to a few characters.
    expect(headers[0]?.width).toBeGreaterThanOrEqual(120);
    expect(headers[4]?.width).toBeGreaterThanOrEqual(140);
    // A long description ends in an ellipsis, and its cell's title holds it whole.
    const cut = table.locator('.ant-table-row td.ant-table-cell-ellipsis[title]').first();
    if (await cut.count()) expect(await cut.getAttribute('title')).not.toBe('');
  });
});

describe('unsaved grants', () => {
  it('asks before closing the role page with an unsaved grant, and keeps the checked boxes on cancel', async () => {
    const admin = await openAs('admin', '/system/role');
    await row(admin, '物流企业').click();
    const box = await grantBox(admin, '危废管理');
    expect(await box.getAttribute('class')).not.toContain('ant-tree-checkbox-checked');
    await box.click();
    await admin.locator('.wg-tag[data-path="/system/role"] .wg-tag-close').click();
    const ask = admin.locator('.ant-modal-confirm');
    await ask.locator('.ant-modal-confirm-title').getByText('“物流企业”的授权尚未保存').waitFor();
    await ask.getByRole('button', { name: /取\s*消/ }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await (await grantBox(admin, '危废管理')).getAttribute('class')).toContain('ant-tree-checkbox-checked');
    // Saved, the tab closes without asking.
    await admin.getByRole('button', { name: '保存授权' }).click();
    await toast(admin, '授权已保存，用户下次加载菜单时生效').waitFor();
    await admin.locator('.wg-tag[data-path="/system/role"] .wg-tag-close').click();
    await expect.poll(() => admin.locator('[data-page="system-role"]').count()).toBe(0);
    expect(await admin.locator('.ant-modal-confirm').count()).toBe(0);
  });
});

describe('data scope', () => {
  it('sets a role to 自定义 with a department picked by keyboard, keeps it on reopening, and lists each user with 所属企业', async () => {
    const api = await server.login('admin');
    expect((await api.post('/api/roles', { name: '数据范围测试', level: 3 })).status).toBe(201);
    const admin = await openAs('admin', '/system/role');
    const role = row(admin, '数据范围测试');
    await role.waitFor();
    // A new role without a scope starts at 本企业.
    expect(await role.innerText()).toContain('本企业');
    await button(role, '编辑').click();
    const dialog = modal(admin, '编辑角色');
    await dialog.waitFor();
    expect(await formItem(dialog, '数据权限').locator('.ant-select-content').innerText()).toBe('本企业');
    expect(await formItem(dialog, '数据部门').count()).toBe(0);

    // The scope by keyboard: open the list, go down to 自定义, Enter.
    const scope = formItem(dialog, '数据权限').getByRole('combobox');
    await scope.focus();
    await scope.press('Enter');
    await admin.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '自定义' }).waitFor();
    for (let i = 0; i < 5; i++) {
      const active = (await admin.locator('.ant-select-dropdown:visible .ant-select-item-option-active').innerText()).trim();
      if (active === '自定义') break;
      await scope.press('ArrowDown');
    }
    await scope.press('Enter');
    await formItem(dialog, '数据权限').locator('.ant-select-content', { hasText: '自定义' }).waitFor();

    // 自定义 needs a department.
    const depts = formItem(dialog, '数据部门');
    await depts.waitFor();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await depts.getByText('数据权限为自定义时请至少选择一个部门').waitFor();

    // A department by keyboard: type to find it, Enter picks it.
    const deptInput = depts.getByRole('combobox');
    await deptInput.focus();
    await deptInput.fill('处置企业部');
    await admin.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: '处置企业部' }).waitFor();
    await deptInput.press('Enter');
    await depts.locator('.ant-select-selection-item', { hasText: '处置企业部' }).waitFor();
    await dialog.locator('.ant-modal-title').click();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(admin, '修改成功').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await role.getByText('自定义：处置企业部').waitFor();
    const stored = await server.ctx.db
      .selectFrom('sys_roles_depts as rd')
      .innerJoin('sys_role as r', 'r.id', 'rd.role_id')
      .innerJoin('sys_dept as d', 'd.id', 'rd.dept_id')
      .select(['r.data_scope', 'd.name'])
      .where('r.name', '=', '数据范围测试')
      .execute();
    expect(stored).toEqual([{ data_scope: '自定义', name: '处置企业部' }]);

    // Reopened, the dialog shows what was kept.
    await button(role, '编辑').click();
    await dialog.waitFor();
    await formItem(dialog, '数据权限').locator('.ant-select-content', { hasText: '自定义' }).waitFor();
    await formItem(dialog, '数据部门').locator('.ant-select-selection-item', { hasText: '处置企业部' }).waitFor();
    expect(await formItem(dialog, '数据部门').locator('.ant-select-selection-item').allInnerTexts()).toEqual(['处置企业部']);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The user list names each user's company; the dialog gives one to a user without.
    const company = await server.ctx.db.selectFrom('company').select(['id', 'name']).orderBy('id').limit(2).execute();
    const [producerCompany, disposerCompany] = company as [{ id: number; name: string }, { id: number; name: string }];
    await admin.goto('/system/user');
    await admin.locator('.ant-table-thead').getByText('所属企业', { exact: true }).waitFor();
    await row(admin, 'producer').getByText(producerCompany.name, { exact: true }).waitFor();
    const supervisor = row(admin, 'supervisor');
    expect(await supervisor.getByText('—', { exact: true }).count()).toBe(1);
    await button(supervisor, '编辑').click();
    const userDialog = modal(admin, '编辑用户');
    await userDialog.waitFor();
    const picker = formItem(userDialog, '所属企业').getByRole('combobox');
    // By keyboard: the answer for the typed name is the only option, and Enter picks it.
    await picker.fill(disposerCompany.name.slice(0, 4));
    await expect
      .poll(() => admin.locator('.ant-select-dropdown:visible .ant-select-item-option').allInnerTexts())
      .toEqual([disposerCompany.name]);
    await picker.press('Enter');
    await formItem(userDialog, '所属企业').locator('.ant-select-content', { hasText: disposerCompany.name }).waitFor();
    // A company's account sits in one of its own departments: the supervisory department no longer fits.
    await userDialog.getByRole('button', { name: /确\s*定/ }).click();
    await formItem(userDialog, '部门').getByText('所选部门不属于该用户的企业').waitFor();
    const deptPicker = formItem(userDialog, '部门').getByRole('combobox');
    await deptPicker.focus();
    await deptPicker.fill('处置企业部');
    await admin.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: '处置企业部' }).waitFor();
    await deptPicker.press('Enter');
    await formItem(userDialog, '部门').locator('.ant-select-content', { hasText: '处置企业部' }).waitFor();
    await userDialog.locator('.ant-modal-title').click();
    await userDialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(admin, '修改成功').waitFor();
    await supervisor.getByText(disposerCompany.name, { exact: true }).waitFor();
    const supervisorRow = await server.ctx.db
      .selectFrom('sys_user')
      .select('company_id')
      .where('username', '=', 'supervisor')
      .executeTakeFirstOrThrow();
    expect(supervisorRow.company_id).toBe(disposerCompany.id);
    await server.ctx.db.updateTable('sys_user').set({ company_id: null, dept_id: 2 }).where('username', '=', 'supervisor').execute();
  }, 120_000);
});

describe('company applications', () => {
  it('approves an application; the new company signs in, and finds the message', async () => {
    const uuid = String((await server.api.get('/api/auth/code')).body.uuid);
    const applied = await server.api.post('/api/companyApplication/insert', {
      name: '南京青禾环保科技有限公司',
      type: '1',
      region: '320000,320100,320102',
      applicant: '李青禾',
      phone: '13912340001',
      code: TEST_CAPTCHA,
      uuid,
    });
    expect(applied.body.message).toBe('申请已经提交，请耐心等待');

    const admin = await openAs('admin', '/system/companyApply');
    const pending = row(admin, '南京青禾环保科技有限公司');
    await pending.waitFor();
    expect(await pending.innerText()).toContain('待审核');
    await pending.getByRole('button', { name: '通过' }).click();
    const dialog = modal(admin, '审核通过：南京青禾环保科技有限公司');
    // Starts from the applicant's phone and the role named like the company type; no department is asked,
    // as the new company gets its own.
    expect(await formItem(dialog, '登录账号').locator('input').inputValue()).toBe('13912340001');
    expect(await formItem(dialog, '角色').innerText()).toContain('产废企业');
    expect(await formItem(dialog, '部门').count()).toBe(0);
    await dialog.getByText('账号将放在新企业自己的部门中。').waitFor();
    // A taken account name is refused with the server's message; what was typed stays.
    await formItem(dialog, '登录账号').locator('input').fill('producer');
    await dialog.getByRole('button', { name: /通\s*过/ }).click();
    await dialog.getByRole('alert').getByText('用户名已存在').waitFor();
    expect(await formItem(dialog, '登录账号').locator('input').inputValue()).toBe('producer');
    await formItem(dialog, '登录账号').locator('input').fill('qinghe');
    await dialog.getByRole('button', { name: /通\s*过/ }).click();
    await toast(admin, '审核通过，已创建企业和账号（账号 qinghe）').waitFor();
    await pending.waitFor({ state: 'detached' });

    // Recorded: listed with its decision under all statuses.
    await admin.locator('.sys-toolbar .ant-select').click();
    await admin.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '全部状态' }).click();
    const decided = row(admin, '南京青禾环保科技有限公司');
    await decided.waitFor();
    expect(await decided.innerText()).toMatch(/已通过[\s\S]*管理员[\s\S]*账号 qinghe/);

    const company = await firstSignIn('qinghe');
    await company.getByRole('button', { name: '用户菜单：李青禾' }).waitFor();
    // The company's menus are the producer role's.
    expect(await sidebarEntries(company)).toContain('危废管理 › 危废入库');
    const api = await server.login('qinghe', NEW_PASSWORD);
    const info = await api.get('/api/auth/info');
    expect(info.body.company).toMatchObject({ name: '南京青禾环保科技有限公司' });
    expect(info.body.user.dept).toMatchObject({ name: '南京青禾环保科技有限公司' });
    expect(info.body.roles).toContain('stockIn:add');
    const messages = await api.get('/api/sysMessage/page', { page: 0, size: 10 });
    expect(messages.body.content.map((m: { title: string }) => m.title)).toContain('企业入驻申请已通过');
  }, 180_000);

  it('rejects an application only with a reason, and records it', async () => {
    const uuid = String((await server.api.get('/api/auth/code')).body.uuid);
    await server.api.post('/api/companyApplication/insert', {
      name: '无锡驳回测试化工有限公司',
      type: '1',
      region: '320000,320100,320102',
      applicant: '王驳回',
      phone: '13912340002',
      code: TEST_CAPTCHA,
      uuid,
    });
    const admin = await openAs('admin', '/system/companyApply');
    await row(admin, '无锡驳回测试化工有限公司').getByRole('button', { name: '驳回' }).click();
    const dialog = modal(admin, '驳回：无锡驳回测试化工有限公司');
    await dialog.getByRole('button', { name: /驳\s*回/ }).click();
    await dialog.getByText('请输入驳回原因').waitFor();
    await formItem(dialog, '驳回原因').locator('textarea').fill('营业执照照片不清晰');
    await dialog.getByRole('button', { name: /驳\s*回/ }).click();
    await toast(admin, '已驳回').waitFor();
    await row(admin, '无锡驳回测试化工有限公司').waitFor({ state: 'detached' });
    const stored = await server.ctx.db
      .selectFrom('company_application')
      .select(['status', 'reason', 'reviewer_name'])
      .where('name', '=', '无锡驳回测试化工有限公司')
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 2, reason: '营业执照照片不清晰', reviewer_name: '管理员' });
  });
});

describe('departments', () => {
  it('refuses to delete a department with users and says so; an empty one is deleted after confirming', async () => {
    const admin = await openAs('admin', '/system/dept');
    const producers = row(admin, '产废企业部');
    await producers.waitFor();
    await rowAction(producers, '删除');
    await admin.locator('.ant-modal-confirm').getByText('确定删除部门“产废企业部”吗？').waitFor();
    await confirmOk(admin);
    await toast(admin, '所选部门或其下级部门存在用户，请解除关联再试').waitFor();
    await producers.waitFor();

    await button(admin, '新增').click();
    const dialog = modal(admin, '新增部门');
    await formItem(dialog, '部门名称').locator('input').fill('临时项目组');
    await formItem(dialog, '部门名称').locator('input').press('Enter');
    await toast(admin, '新增成功').waitFor();
    const temp = row(admin, '临时项目组');
    await temp.waitFor();
    await rowAction(temp, '删除');
    await confirmOk(admin);
    await toast(admin, '删除成功').waitFor();
    await temp.waitFor({ state: 'detached' });
    expect(await server.ctx.db.selectFrom('sys_dept').select('id').where('name', '=', '临时项目组').executeTakeFirst()).toBeUndefined();
  });
});
