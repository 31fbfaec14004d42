import { z } from 'zod';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { subtreeIds, treeOf } from '../lib/accounts-menus.js';
import { checkedParent, done, exists, idList, int, optId, sortNum, text, treeLevelPage, trimmed } from '../lib/admin-input.js';
import { requireLookup } from '../lib/lookup-access.js';
import { answers, ok } from '../lib/route.js';
import { containing, pageOf } from '../lib/sql.js';

const deptBody = z.object({
  id: optId,
  pid: optId,
  name: text.optional(),
  code: z.string().max(50).nullable().optional(),
  deptSort: sortNum.optional(),
  enabled: z.boolean().optional(),
});

const deptItem = z.object({
  id: z.number(),
  pid: z.number().nullable(),
  name: z.string(),
  code: z.string().nullable(),
  deptSort: z.number(),
  enabled: z.boolean(),
  hasChildren: z.boolean(),
  createTime: z.string().nullable(),
});

interface DeptNode {
  id: number;
  name: string;
  code: string | null;
  children?: DeptNode[];
}
const deptNode: z.ZodType<DeptNode> = z.lazy(() =>
  z.object({ id: z.number(), name: z.string(), code: z.string().nullable(), children: z.array(deptNode).optional() }),
);

/** Departments: the tree pickers read, and administrators edit. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  // Pickers: read by those who manage users or departments, or by a view whose field draws options from them.
  app.get(
    '/api/dept/list',
    answers(
      { session: true },
      z.object({
        depts: z.array(z.object({ id: z.number(), name: z.string(), hasChildren: z.boolean() })),
        users: z.array(z.object({ id: z.number(), username: z.string(), nickName: z.string() })),
      }),
      { querystring: z.object({ deptId: int.optional() }) },
    ),
    async (req) => {
      await requireLookup(ctx, req, '/api/dept/list', ['user:list', 'user:add', 'user:edit']);
      const deptId = req.query.deptId ?? 0;
      let q = db
        .selectFrom('sys_dept as d')
        .select((eb) => [
          'd.id',
          'd.name',
          eb.exists(eb.selectFrom('sys_dept as c').select('c.id').whereRef('c.pid', '=', 'd.id')).as('has_children'),
        ])
        .where('d.enabled', '=', true);
      q = deptId === 0 ? q.where('d.pid', 'is', null) : q.where('d.pid', '=', deptId);
      const depts = await q.orderBy('d.sort').orderBy('d.id').execute();
      const users =
        deptId === 0
          ? []
          : await db
              .selectFrom('sys_user')
              .select(['id', 'username', 'nick_name'])
              .where('dept_id', '=', deptId)
              .where('status', '=', 0)
              .orderBy('id')
              .execute();
      return {
        depts: depts.map((d) => ({ id: d.id, name: d.name, hasChildren: !!d.has_children })),
        users: users.map((u) => ({ id: u.id, username: u.username, nickName: u.nick_name })),
      };
    },
  );

  app.get('/api/dept/find', answers({ session: true }, z.object({ status: z.number(), data: z.array(deptNode) })), async (req) => {
    await requireLookup(ctx, req, '/api/dept/find', [
      'dept:list',
      'user:list',
      'user:add',
      'user:edit',
      'companyApply:list',
      'companyApply:approve',
    ]);
    const rows = await db
      .selectFrom('sys_dept')
      .select(['id', 'pid', 'name', 'code'])
      .where('enabled', '=', true)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return { status: 200, data: treeOf(rows, (d) => ({ id: d.id, name: d.name, code: d.code })) };
  });

  app.get(
    '/api/dept',
    answers({ permission: 'dept:list' }, pageOf(deptItem), { querystring: z.object({ pid: optId, name: z.string().optional() }) }),
    async (req) => {
      let q = db
        .selectFrom('sys_dept as d')
        .selectAll('d')
        .select((eb) => eb.exists(eb.selectFrom('sys_dept as c').select('c.id').whereRef('c.pid', '=', 'd.id')).as('has_children'));
      const name = req.query.name?.trim();
      if (name) q = q.where('d.name', 'ilike', containing(name));
      else q = req.query.pid ? q.where('d.pid', '=', req.query.pid) : q.where('d.pid', 'is', null);
      const rows = await q.orderBy('d.sort').orderBy('d.id').execute();
      return treeLevelPage(rows, (d) => ({ id: d.id, pid: d.pid, name: d.name, code: d.code, deptSort: d.sort, enabled: d.enabled }));
    },
  );

  const deptValues = async (body: z.infer<typeof deptBody>, currentId: number | null) => {
    const name = (body.name ?? '').trim();
    if (!name) throw badRequest('DEPT_NAME_REQUIRED');
    const pid = await checkedParent(db, 'sys_dept', body.pid, currentId, { missing: 'PARENT_DEPT_NOT_FOUND', cycle: 'PARENT_DEPT_CYCLE' });
    const code = trimmed(body.code);
    if (code) {
      let dup = db.selectFrom('sys_dept').select('id').where('code', '=', code);
      if (currentId !== null) dup = dup.where('id', '<>', currentId);
      if (await dup.executeTakeFirst()) throw badRequest('DEPT_CODE_TAKEN');
    }
    return { pid, name, code, sort: body.deptSort ?? 999, enabled: body.enabled ?? true };
  };

  app.post(
    '/api/dept',
    { config: { permission: 'dept:add', log: '新增部门' }, schema: { body: deptBody, response: { 201: z.object({ id: z.number() }) } } },
    async (req, reply) => {
      const row = await db
        .insertInto('sys_dept')
        .values(await deptValues(req.body, null))
        .returning('id')
        .executeTakeFirstOrThrow();
      return reply.status(201).send({ id: row.id });
    },
  );

  app.put('/api/dept', answers({ permission: 'dept:edit', log: '修改部门' }, ok, { body: deptBody }), async (req) => {
    if (!req.body.id) throw badRequest('DEPT_ID_REQUIRED');
    if (!(await exists(db, 'sys_dept', [req.body.id]))) throw notFound('DEPT_NOT_FOUND');
    await db
      .updateTable('sys_dept')
      .set(await deptValues(req.body, req.body.id))
      .where('id', '=', req.body.id)
      .execute();
    // A changed department code changes who counts as supervisor (deptCode 01).
    ctx.sessions.invalidate();
    return done();
  });

  app.delete('/api/dept', answers({ permission: 'dept:del', log: '删除部门' }, ok, { body: idList }), async (req) => {
    const rows = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
    const ids = [...subtreeIds(rows, req.body)];
    const used = await db.selectFrom('sys_user').select('id').where('dept_id', 'in', ids).where('status', '<>', 2).executeTakeFirst();
    if (used) throw badRequest('DEPT_IN_USE');
    await db.transaction().execute(async (trx) => {
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
  });
}
