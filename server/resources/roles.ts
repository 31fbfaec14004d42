import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import { ROLE_READERS, type RoleItem, type roleBody, roles, type ScopeDeptNode } from '../../src/contract/roles.js';
import { HIDDEN_IN_NAMES } from '../../src/shared/person-rule.js';
import { assertGrantableMenus, assertManageableRoleLevels } from '../access/levels.js';
import { requireLookup } from '../access/lookups.js';
import { type DataScopeName, DEFAULT_DATA_SCOPE, isDataScopeName } from '../access/scope.js';
import { assertDeptsWithin, assertManageableRoles, companiesOfDepts, deptsWithin, roleOwner, rolesSeen } from '../access/tenancy.js';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { formatTime, parseSort } from '../lib/accounts-users.js';
import { done, exists, trimmed } from '../lib/admin-input.js';
import { readsAs } from '../lib/company-names.js';
import { paginate } from '../lib/paging.js';
import { containing } from '../lib/sql.js';
import { registerResource, writerOf } from './register.js';

/** A stored scope as the roles answer it: a value from before the five scopes reads as the default, as sessions read it. */
const scopeOfRow = (v: string): DataScopeName => (isDataScopeName(v) ? v : DEFAULT_DATA_SCOPE);

/** Roles and the menus they grant. */
/**
 * The first step of a change to a role: locks it until the change commits, so a delete of it waits or is
 * waited for (it locks the role too); one deleted meanwhile is not found, never half-written.
 */
async function holdRole(trx: Kysely<DB>, id: number): Promise<void> {
  const held = await sql`select 1 from sys_role where id = ${id} for update`.execute(trx);
  if (!held.rows.length) throw notFound('ROLE_NOT_FOUND');
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  /** Roles as answered: with their granted menus and, for 自定义, their chosen departments. */
  const roleItems = async (rows: Selectable<DB['sys_role']>[]): Promise<RoleItem[]> => {
    const ids = rows.map((r) => r.id);
    const links = ids.length
      ? await db.selectFrom('sys_roles_menus').select(['role_id', 'menu_id']).where('role_id', 'in', ids).orderBy('menu_id').execute()
      : [];
    const depts = ids.length
      ? await db
          .selectFrom('sys_roles_depts as rd')
          .innerJoin('sys_dept as d', 'd.id', 'rd.dept_id')
          .select(['rd.role_id', 'd.id', 'd.name'])
          .where('rd.role_id', 'in', ids)
          .orderBy('d.sort')
          .orderBy('d.id')
          .execute()
      : [];
    return rows.map((r) => {
      const dataScope = scopeOfRow(r.data_scope);
      return {
        id: r.id,
        name: r.name,
        level: r.level,
        description: r.description,
        dataScope,
        companyId: r.company_id,
        depts: dataScope === '自定义' ? depts.filter((d) => d.role_id === r.id).map((d) => ({ id: d.id, name: d.name })) : [],
        menus: links.filter((l) => l.role_id === r.id).map((l) => ({ id: l.menu_id })),
        createTime: formatTime(r.create_time),
      };
    });
  };

  /** Replaces a role's links in a link table with `links` (none: the role keeps no link there). */
  const replaceLinks = async (
    trx: Kysely<DB>,
    roleId: number,
    table: 'sys_roles_menus' | 'sys_roles_depts',
    links: { role_id: number }[],
  ) => {
    // Both link tables key on role_id; the query builder types one table at a time.
    const t = table as 'sys_roles_menus';
    await trx.deleteFrom(t).where('role_id', '=', roleId).execute();
    if (links.length)
      await trx
        .insertInto(t)
        .values(links as Insertable<DB['sys_roles_menus']>[])
        .execute();
  };

  const setRoleMenus = async (trx: Kysely<DB>, me: SessionUser, roleId: number, menus: { id: number }[] | undefined) => {
    if (!menus) return;
    const ids = [...new Set(menus.map((m) => m.id))];
    if (!(await exists(trx, 'sys_menu', ids))) throw badRequest('MENU_NOT_FOUND');
    const current = await trx.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', roleId).execute();
    await assertGrantableMenus(
      trx,
      me,
      ids,
      current.map((m) => m.menu_id),
    );
    await replaceLinks(
      trx,
      roleId,
      'sys_roles_menus',
      ids.map((menu_id) => ({ role_id: roleId, menu_id })),
    );
  };

  /** A role the editor may change, with its current level, data scope and company; 404 or 403 otherwise. */
  const roleNow = async (me: SessionUser, roleId: number) => {
    await assertManageableRoles(db, me, [roleId]);
    const row = await db.selectFrom('sys_role').select(['level', 'data_scope', 'company_id']).where('id', '=', roleId).executeTakeFirst();
    if (!row) throw notFound('ROLE_NOT_FOUND');
    return { level: row.level, dataScope: row.data_scope, companyId: row.company_id };
  };

  /**
   * The role's data scope as it will be stored, and its chosen departments (undefined: keep the
   * current ones). A scope left out keeps the role's (a new role gets the default); only 自定义 keeps
   * departments, and it needs at least one.
   */
  const scopeValues = async (
    me: SessionUser,
    body: z.infer<typeof roleBody>,
    current: { dataScope: string } | null,
    companyId: number | null,
  ) => {
    let scope: DataScopeName;
    if (body.dataScope === undefined) scope = current ? scopeOfRow(current.dataScope) : DEFAULT_DATA_SCOPE;
    else {
      const asked = body.dataScope.trim();
      if (!isDataScopeName(asked)) throw badRequest('ROLE_SCOPE_INVALID');
      scope = asked;
    }
    // Only what one holds may be granted: an editor without 全部 cannot give 全部, nor departments it does not see.
    const own = me.dataScope;
    // A company's role never reaches beyond its company.
    if (companyId !== null && scope === '全部') throw badRequest('COMPANY_ROLE_NOT_ALL');
    if (!own.all && scope === '全部' && (current === null || scopeOfRow(current.dataScope) !== '全部'))
      throw forbidden('ROLE_SCOPE_BEYOND_OWN');
    if (scope !== '自定义') return { scope, depts: [] as number[] };
    // Staying 自定义 without naming departments keeps the chosen ones.
    if (body.depts === undefined && current?.dataScope === '自定义') return { scope, depts: undefined };
    const depts = [...new Set(body.depts ?? [])];
    if (!depts.length) throw badRequest('ROLE_SCOPE_DEPTS_REQUIRED');
    if (!(await exists(db, 'sys_dept', depts))) throw badRequest('ROLE_SCOPE_DEPT_NOT_FOUND');
    if (companyId !== null) {
      const owners = await companiesOfDepts(db, depts);
      if (depts.some((d) => owners.get(d) !== companyId)) throw badRequest('COMPANY_ROLE_DEPTS');
    }
    // Departments the editor reaches: its 本部门 and 自定义 ones, and every department of its company under 本企业.
    if (!own.all) await assertDeptsWithin(db, me, depts).catch(() => Promise.reject(forbidden('ROLE_SCOPE_BEYOND_OWN')));
    return { scope, depts };
  };

  const setRoleDepts = async (trx: Kysely<DB>, roleId: number, depts: number[] | undefined) => {
    if (!depts) return;
    await replaceLinks(
      trx,
      roleId,
      'sys_roles_depts',
      depts.map((dept_id) => ({ role_id: roleId, dept_id })),
    );
  };

  /** The company a new role belongs to: the one a 全部 manager names (none: the platform's), else the manager's own. */
  const newRoleCompany = async (me: SessionUser, body: z.infer<typeof roleBody>): Promise<number | null> => {
    const owner = roleOwner(me);
    if (owner === 'all') {
      const asked = body.companyId ?? null;
      if (asked !== null && !(await exists(db, 'company', [asked]))) throw badRequest('COMPANY_NOT_FOUND');
      return asked;
    }
    if (owner === null) throw forbidden('ROLE_ADD_NEEDS_COMPANY');
    return owner;
  };

  const roleValues = async (
    me: SessionUser,
    body: z.infer<typeof roleBody>,
    current: { id: number; level: number; dataScope: string; companyId: number | null } | null,
    companyId: number | null,
  ) => {
    const name = (body.name ?? '').trim();
    if (!name) throw badRequest('ROLE_NAME_REQUIRED');
    if (HIDDEN_IN_NAMES.test(name)) throw badRequest('ROLE_NAME_HIDDEN_CHARS');
    // Names are unique, as they read (readsAs), among the platform's roles and the role's company's, so no picker shows two alike.
    let dup = db
      .selectFrom('sys_role')
      .select('name')
      .where((eb) => (companyId === null ? eb.lit(true) : eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)])));
    if (current !== null) dup = dup.where('id', '<>', current.id);
    const key = readsAs(name);
    if ((await dup.execute()).some((r) => readsAs(r.name) === key)) throw badRequest('ROLE_NAME_TAKEN');
    const level = body.level ?? current?.level ?? 3;
    // Neither the role as it is nor as it will be may stand above the editor.
    await assertManageableRoleLevels(db, me, current ? [current.level, level] : [level]);
    const { scope, depts } = await scopeValues(me, body, current, companyId);
    return {
      values: { name, level, description: trimmed(body.description), data_scope: scope, company_id: companyId },
      depts,
    };
  };

  registerResource(app, roles, {
    list: async (req) => {
      // The role page, the pages that pick roles for an account (users, company approval), and views whose
      // fields pick from the roles.
      await requireLookup(ctx, req, '/api/roles', ROLE_READERS);
      const sort = parseSort(req.query.sort, { id: 'id', name: 'name', level: 'level', createTime: 'create_time' }, [
        ['level', 'asc'],
        ['id', 'asc'],
      ]);
      // The low-code engine asks for "all roles" as page=1&size=9999 while pages are 0-based elsewhere:
      // a full-list size (999 or more) returns every role, whatever the page.
      const full = (req.query.size ?? 0) >= 999;
      // The platform's roles and the reader's own company's; another company's roles are never seen.
      let q = db.selectFrom('sys_role as r').where(rolesSeen(currentUser(req)));
      const b = req.query.blurry?.trim();
      if (b) q = q.where('r.name', 'ilike', containing(b));
      const { content: rows, totalElements } = await paginate(
        q,
        (x) => sort.reduce((o, [col, dir]) => o.orderBy(sql.ref(`r.${col}`), dir), x.selectAll('r')),
        { page: full ? 0 : req.query.page, size: req.query.size },
      );
      return { content: await roleItems(rows), totalElements };
    },
    // The departments a 自定义 role may choose: those the editor's data scope reaches.
    depts: async (req) => {
      const rows = await db
        .selectFrom('sys_dept as d')
        .select(['d.id', 'd.pid', 'd.name', 'd.enabled'])
        .where(deptsWithin(currentUser(req)))
        .orderBy('d.sort')
        .orderBy('d.id')
        .execute();
      const ids = new Set(rows.map((r) => r.id));
      // A department whose parent is out of reach stands at the top.
      const byPid = new Map<number | null, typeof rows>();
      for (const r of rows) {
        const pid = r.pid !== null && ids.has(r.pid) ? r.pid : null;
        byPid.set(pid, [...(byPid.get(pid) ?? []), r]);
      }
      const build = (pid: number | null): ScopeDeptNode[] =>
        (byPid.get(pid) ?? []).map((d) => {
          const children = build(d.id);
          const node = { id: d.id, name: d.name, enabled: d.enabled };
          return children.length ? { ...node, children } : node;
        });
      return build(null);
    },
    one: async (req) => {
      const row = await db
        .selectFrom('sys_role as r')
        .selectAll('r')
        .where('r.id', '=', req.params.id)
        .where(rolesSeen(currentUser(req)))
        .executeTakeFirst();
      if (!row) throw notFound('ROLE_NOT_FOUND');
      return (await roleItems([row]))[0] as RoleItem;
    },
    add: async (req) => {
      const me = currentUser(req);
      const { values, depts } = await roleValues(me, req.body, null, await newRoleCompany(me, req.body));
      const roleId = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          const row = await trx.insertInto('sys_role').values(values).returning('id').executeTakeFirstOrThrow();
          await setRoleMenus(trx, me, row.id, req.body.menus);
          await setRoleDepts(trx, row.id, depts);
          return row.id;
        });
      ctx.sessions.invalidate();
      return { id: roleId };
    },
    edit: async (req) => {
      const me = currentUser(req);
      const roleId = req.body.id;
      if (!roleId) throw badRequest('ROLE_ID_REQUIRED');
      const now = await roleNow(me, roleId);
      const { values, depts } = await roleValues(me, req.body, { id: roleId, ...now }, now.companyId);
      await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await holdRole(trx, roleId);
          await trx.updateTable('sys_role').set(values).where('id', '=', roleId).execute();
          await setRoleMenus(trx, me, roleId, req.body.menus);
          await setRoleDepts(trx, roleId, depts);
        });
      // The role's users' sessions reload their menus and data scope at their next call.
      ctx.sessions.invalidate();
      return done();
    },
    grantMenus: async (req) => {
      const me = currentUser(req);
      await assertManageableRoleLevels(db, me, [(await roleNow(me, req.body.id)).level]);
      await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await holdRole(trx, req.body.id);
          await setRoleMenus(trx, me, req.body.id, req.body.menus);
        });
      ctx.sessions.invalidate();
      return done();
    },
    remove: async (req) => {
      await assertManageableRoles(db, currentUser(req), req.body);
      const rows = await db.selectFrom('sys_role').select('level').where('id', 'in', req.body).execute();
      await assertManageableRoleLevels(
        db,
        currentUser(req),
        rows.map((r) => r.level),
      );
      // The roles are locked before they are judged unused: an account given one meanwhile (which locks
      // it shared, see the users' writes) either committed before, and is seen, or waits and finds it gone.
      await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await sql`select 1 from sys_role where id in (${sql.join([...new Set(req.body)])}) order by id for update`.execute(trx);
          const used = await trx
            .selectFrom('sys_users_roles as ur')
            .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
            .select('ur.role_id')
            .where('ur.role_id', 'in', req.body)
            .where('u.status', '<>', 2)
            .executeTakeFirst();
          if (used) throw badRequest('ROLE_IN_USE');
          await trx.deleteFrom('sys_role').where('id', 'in', req.body).execute();
        });
      ctx.sessions.invalidate();
      return done('删除成功');
    },
  });
}
