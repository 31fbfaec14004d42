import { sql } from 'kysely';
import type { z } from 'zod';
import { type deptBody, depts } from '../../src/contract/depts.js';
import { HIDDEN_IN_NAMES } from '../../src/shared/person-rule.js';
import { LOOKUP_DENIED, requireLookup } from '../access/lookups.js';
import { assertDeptsWithin, deptsAddressable, deptsWithin, holdDepts, usersWithin } from '../access/tenancy.js';
import type { App } from '../app.js';
import { currentUser, hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden } from '../errors.js';
import { subtreeIds, treeOf } from '../lib/accounts-menus.js';
import { checkedParent, done, exists, treeLevelPage, trimmed } from '../lib/admin-input.js';
import { deptNameTaken, nameLettersAllowed } from '../lib/company-names.js';
import { containing } from '../lib/sql.js';
import { registerResource, writerOf } from './register.js';

/** Departments: the tree pickers read, and administrators edit. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  /** Every department the caller's scope reaches, each marked `top` when its parent is out of reach. */
  const scopedDepts = async (me: SessionUser) => {
    const rows = await db.selectFrom('sys_dept as d').selectAll('d').where(deptsWithin(me)).orderBy('d.sort').orderBy('d.id').execute();
    const ids = new Set(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, top: r.pid === null || !ids.has(r.pid) }));
  };

  /**
   * A department as it will be stored. Its parent must be one the manager reaches and of the same company
   * (a department never moves between companies); a top department belongs to the manager's company,
   * or, for a manager of 全部, to the company it names (none: the platform's). Codes are set by managers of
   * 全部 only: the supervisory department is known by its code.
   */
  const deptValues = async (
    me: SessionUser,
    body: z.infer<typeof deptBody>,
    current: { id: number; pid: number | null; name: string; code: string | null; company_id: number | null } | null,
  ) => {
    const name = (body.name ?? '').trim();
    if (!name) throw badRequest('DEPT_NAME_REQUIRED');
    if (HIDDEN_IN_NAMES.test(name)) throw badRequest('DEPT_NAME_HIDDEN_CHARS');
    // Judged when the name is written, so a department named before the rule is still edited.
    if (name !== current?.name && !nameLettersAllowed(name)) throw badRequest('DEPT_NAME_LETTERS');
    const currentId = current?.id ?? null;
    const pid = await checkedParent(db, 'sys_dept', body.pid, currentId, { missing: 'PARENT_DEPT_NOT_FOUND', cycle: 'PARENT_DEPT_CYCLE' });
    let companyId: number | null;
    if (pid !== null) {
      await assertDeptsWithin(db, me, [pid]).catch(() => Promise.reject(forbidden('DEPT_OUTSIDE_SCOPE')));
      const parent = await db.selectFrom('sys_dept').select('company_id').where('id', '=', pid).executeTakeFirst();
      if (!parent) throw badRequest('PARENT_DEPT_NOT_FOUND');
      companyId = parent.company_id;
    } else if (current) companyId = current.company_id;
    else if (me.dataScope.all) {
      companyId = body.companyId ?? null;
      if (companyId !== null && !(await exists(db, 'company', [companyId]))) throw badRequest('COMPANY_NOT_FOUND');
    } else {
      if (me.dataScope.companyId === null) throw forbidden('DEPT_OUTSIDE_SCOPE');
      companyId = me.dataScope.companyId;
    }
    if (current && companyId !== current.company_id) throw badRequest('DEPT_OTHER_COMPANY_PARENT');
    const code = trimmed(body.code);
    if ((code ?? null) !== (current?.code ?? null) && !me.dataScope.all) throw forbidden('DEPT_CODE_ALL_ONLY');
    if (code) {
      let dup = db.selectFrom('sys_dept').select('id').where('code', '=', code);
      if (currentId !== null) dup = dup.where('id', '<>', currentId);
      if (await dup.executeTakeFirst()) throw badRequest('DEPT_CODE_TAKEN');
    }
    // Every company reads the platform's and other companies' names: a department passes for none of them
    // (asked of a new name or place; one kept as it stands may predate the rule).
    const changed = !current || current.name !== name || current.pid !== pid;
    if (changed && (await deptNameTaken(db, name, { id: currentId, pid, companyId }))) throw badRequest('DEPT_NAME_TAKEN');
    return { pid, name, code, sort: body.deptSort ?? 999, enabled: body.enabled ?? true, company_id: companyId };
  };

  registerResource(app, depts, {
    // Pickers: read by those who manage users or departments, or by a view whose field draws options from them.
    children: async (req) => {
      const me = await requireLookup(ctx, req, '/api/dept/list', ['user:list', 'user:add', 'user:edit']);
      const deptId = req.query.deptId ?? 0;
      // The departments and accounts the caller's data scope reaches; a department whose parent is out of
      // reach stands at the top.
      const within = await scopedDepts(me);
      const level = within
        .filter((d) => (deptId === 0 ? d.top : d.pid === deptId) && d.enabled)
        .map((d) => ({ id: d.id, name: d.name, has_children: within.some((c) => c.pid === d.id) }));
      const users =
        deptId === 0 || !within.some((d) => d.id === deptId)
          ? []
          : await db
              .selectFrom('sys_user as u')
              .select(['u.id', 'u.username', 'u.nick_name'])
              .where('u.dept_id', '=', deptId)
              .where('u.status', '=', 0)
              .where(usersWithin(me))
              .orderBy('u.id')
              .execute();
      return {
        depts: level.map((d) => ({ id: d.id, name: d.name, hasChildren: !!d.has_children })),
        users: users.map((u) => ({ id: u.id, username: u.username, nickName: u.nick_name })),
      };
    },
    /**
     * The department tree of pickers. Plain, it is the address book a form picks a recipient from: the
     * platform's departments, the caller's company's, and every other company's top department. With
     * `scope=manage` (the user and approval pages), it is the departments the caller may place accounts in.
     */
    tree: async (req) => {
      const managers = ['dept:list', 'user:list', 'user:add', 'user:edit', 'companyApply:list', 'companyApply:approve'];
      const me = await requireLookup(ctx, req, '/api/dept/find', managers);
      let q = db.selectFrom('sys_dept as d').select(['d.id', 'd.pid', 'd.name', 'd.code', 'd.company_id']).where('d.enabled', '=', true);
      if (req.query.scope === 'manage') {
        if (!managers.some((p) => hasPermission(me.roles, p))) throw forbidden(LOOKUP_DENIED);
        q = q.where(deptsWithin(me));
      } else q = q.where(deptsAddressable(me));
      const rows = await q.orderBy('d.sort').orderBy('d.id').execute();
      const ids = new Set(rows.map((r) => r.id));
      const tops = rows.map((r) => ({ ...r, pid: r.pid !== null && ids.has(r.pid) ? r.pid : null }));
      return { status: 200, data: treeOf(tops, (d) => ({ id: d.id, name: d.name, code: d.code, companyId: d.company_id })) };
    },
    list: async (req) => {
      const me = currentUser(req);
      const item = (d: {
        id: number;
        pid: number | null;
        name: string;
        code: string | null;
        sort: number;
        enabled: boolean;
        company_id: number | null;
      }) => ({
        id: d.id,
        pid: d.pid,
        name: d.name,
        code: d.code,
        deptSort: d.sort,
        enabled: d.enabled,
        companyId: d.company_id,
      });
      if (!me.dataScope.all) {
        // A manager's own departments only; those whose parent is out of reach form its top level.
        const within = await scopedDepts(me);
        const name = req.query.name?.trim().toLowerCase();
        const rows = within
          .filter((d) => (name ? d.name.toLowerCase().includes(name) : req.query.pid ? d.pid === req.query.pid : d.top))
          .map((d) => ({ ...d, has_children: within.some((c) => c.pid === d.id) }));
        return treeLevelPage(rows, item);
      }
      let q = db
        .selectFrom('sys_dept as d')
        .selectAll('d')
        .select((eb) => eb.exists(eb.selectFrom('sys_dept as c').select('c.id').whereRef('c.pid', '=', 'd.id')).as('has_children'));
      const name = req.query.name?.trim();
      if (name) q = q.where('d.name', 'ilike', containing(name));
      else q = req.query.pid ? q.where('d.pid', '=', req.query.pid) : q.where('d.pid', 'is', null);
      const rows = await q.orderBy('d.sort').orderBy('d.id').execute();
      return treeLevelPage(rows, item);
    },
    add: async (req) => {
      const values = await deptValues(currentUser(req), req.body, null);
      const row = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          // The parent is held until the new department is written: one deleted meanwhile is not found.
          if (values.pid != null) await holdDepts(trx, [values.pid], 'PARENT_DEPT_NOT_FOUND');
          return trx.insertInto('sys_dept').values(values).returning('id').executeTakeFirstOrThrow();
        });
      return { id: row.id };
    },
    edit: async (req) => {
      if (!req.body.id) throw badRequest('DEPT_ID_REQUIRED');
      const me = currentUser(req);
      await assertDeptsWithin(db, me, [req.body.id]);
      const current = await db
        .selectFrom('sys_dept')
        .select(['id', 'pid', 'name', 'code', 'company_id'])
        .where('id', '=', req.body.id)
        .executeTakeFirstOrThrow();
      await writerOf(req)
        .updateTable('sys_dept')
        .set(await deptValues(me, req.body, current))
        .where('id', '=', req.body.id)
        .execute();
      // A changed department code changes who counts as supervisor (deptCode 01).
      ctx.sessions.invalidate();
      return done();
    },
    remove: async (req) => {
      await assertDeptsWithin(db, currentUser(req), req.body);
      await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          // Every department is locked before the subtree and its accounts are judged: an account moved
          // into one, or a department added under one, either committed before and is seen, or waits
          // and finds it gone.
          await sql`select id from sys_dept order by id for update`.execute(trx);
          // Read again in a statement of its own, after the lock: it sees departments added before it.
          const rows = await trx.selectFrom('sys_dept').select(['id', 'pid']).execute();
          const ids = [...subtreeIds(rows, req.body)];
          const used = await trx
            .selectFrom('sys_user')
            .select('id')
            .where('dept_id', 'in', ids)
            .where('status', '<>', 2)
            .executeTakeFirst();
          if (used) throw badRequest('DEPT_IN_USE');
          // Deleted accounts keep their rows; they lose the department they no longer belong to.
          await trx.updateTable('sys_user').set({ dept_id: null }).where('dept_id', 'in', ids).execute();
          // Leaves first: sys_dept.pid does not cascade.
          const depth = (id: number): number => {
            const p = rows.find((r) => r.id === id)?.pid;
            return p == null ? 0 : 1 + depth(p);
          };
          for (const d of ids.sort((a, b) => depth(b) - depth(a))) await trx.deleteFrom('sys_dept').where('id', '=', d).execute();
        });
      return done('删除成功');
    },
  });
}
