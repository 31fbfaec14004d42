import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { formatTime, parseSort } from '../lib/accounts-users.js';
import { pageFields, pageParams, pageQuery, paginate } from '../lib/paging.js';
import { answers, ok } from '../lib/route.js';
import { containing } from '../lib/sql.js';

export const TAG_TYPES = ['', 'success', 'info', 'warning', 'danger'] as const;

const entry = z.object({ id: z.number(), label: z.string(), value: z.string(), type: z.string(), dictSort: z.number() });
type Entry = z.infer<typeof entry>;
const entryPage = z.object({ content: z.array(entry), totalElements: z.number() });
const detailQuery = z.object({
  dictName: z.string().optional(),
  ...pageFields,
});

// Ids are PostgreSQL integers: anything larger would be a database error, so it is a 400 here.
const int = z.coerce.number().int().min(0).max(2_147_483_647);
const optId = z.union([int, z.null()]).optional();
const text = z.union([z.string(), z.number()]).transform(String).optional();
const detailBody = z.object({
  id: optId,
  label: text,
  value: text,
  type: z.string().max(20).nullable().optional(),
  dictSort: z.coerce.number().int().min(-999_999).max(999_999).optional(),
  sort: z.coerce.number().int().min(-999_999).max(999_999).optional(),
  dict: z.object({ id: int }).optional(),
  dictId: optId,
  dictName: z.string().optional(),
});

const dictBody = z.object({
  id: optId,
  name: z.string().optional(),
  description: z.string().max(255, '长度不能超过255个字符').nullable().optional(),
});

async function entriesOf(db: Kysely<DB>, names: string[]): Promise<Map<string, Entry[]>> {
  const out = new Map<string, Entry[]>(names.map((n) => [n, []]));
  if (!names.length) return out;
  const rows = await db
    .selectFrom('sys_dict_detail as e')
    .innerJoin('sys_dict as d', 'd.id', 'e.dict_id')
    .select(['d.name as dict_name', 'e.id', 'e.label', 'e.value', 'e.type', 'e.sort'])
    .where('d.name', 'in', names)
    .orderBy('e.sort')
    .orderBy('e.id')
    .execute();
  for (const r of rows) out.get(r.dict_name)?.push({ id: r.id, label: r.label, value: r.value, type: r.type, dictSort: r.sort });
  return out;
}

function paged(list: Entry[], page: number | undefined, size: number | undefined) {
  const { limit, offset } = pageParams(page, size ?? 9999);
  return { content: list.slice(offset, offset + limit), totalElements: list.length };
}

/** `dictName=a,b` and `dictName=a&dictName=b` both name several dictionaries. */
function names(raw: unknown): string[] {
  const list = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : []));
  return [...new Set(list.map((s) => s.trim()).filter(Boolean))];
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  app.get('/api/dictDetail', answers({ session: true }, entryPage, { querystring: detailQuery }), async (req) => {
    const name = req.query.dictName?.trim() ?? '';
    const list = name ? ((await entriesOf(db, [name])).get(name) ?? []) : [];
    return paged(list, req.query.page, req.query.size);
  });

  app.get(
    '/api/dictDetail/map',
    answers({ session: true }, z.record(z.string(), z.array(entry)), {
      querystring: z.object({ dictName: z.union([z.string(), z.array(z.string())]).optional() }),
    }),
    async (req) => Object.fromEntries(await entriesOf(db, names(req.query.dictName))),
  );

  app.get('/api/dictDetail/getDictNotLogin', answers({ public: true }, entryPage, { querystring: detailQuery }), async (req) => {
    // Any dictionary, before sign-in: dictionaries hold labels, not secrets (an unknown name has no entries).
    const name = req.query.dictName?.trim() ?? '';
    return paged((await entriesOf(db, [name])).get(name) ?? [], req.query.page, req.query.size);
  });

  const detailValues = async (body: z.infer<typeof detailBody>, dictId: number, currentId: number | null) => {
    const label = (body.label ?? '').trim();
    const value = (body.value ?? '').trim();
    if (!label) throw badRequest('DICT_LABEL_REQUIRED');
    if (!value) throw badRequest('DICT_VALUE_REQUIRED');
    if (label.length > 255 || value.length > 255) throw badRequest('DICT_TEXT_TOO_LONG');
    const type = (body.type ?? '').trim();
    if (!(TAG_TYPES as readonly string[]).includes(type)) throw badRequest('DICT_TAG_TYPE_INVALID');
    let dup = db.selectFrom('sys_dict_detail').select('id').where('dict_id', '=', dictId).where('value', '=', value);
    if (currentId !== null) dup = dup.where('id', '<>', currentId);
    if (await dup.executeTakeFirst()) throw badRequest('DICT_VALUE_TAKEN');
    return { label, value, type, sort: body.dictSort ?? body.sort ?? 999 };
  };

  app.post(
    '/api/dictDetail',
    { config: { permission: 'dict:add', log: '新增字典详情' }, schema: { body: detailBody, response: { 201: entry } } },
    async (req, reply) => {
      const { dict, dictId, dictName } = req.body;
      let q = db.selectFrom('sys_dict').select('id');
      const wanted = dict?.id ?? dictId;
      if (wanted) q = q.where('id', '=', wanted);
      else if (dictName?.trim()) q = q.where('name', '=', dictName.trim());
      else throw badRequest('DICT_REQUIRED');
      const d = await q.executeTakeFirst();
      if (!d) throw badRequest('DICT_NOT_FOUND');
      const values = await detailValues(req.body, d.id, null);
      const row = await db
        .insertInto('sys_dict_detail')
        .values({ ...values, dict_id: d.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      return reply.status(201).send({ id: row.id, label: values.label, value: values.value, type: values.type, dictSort: values.sort });
    },
  );

  app.put('/api/dictDetail', answers({ permission: 'dict:edit', log: '修改字典详情' }, entry, { body: detailBody }), async (req) => {
    if (!req.body.id) throw badRequest('DICT_DETAIL_ID_REQUIRED');
    const current = await db.selectFrom('sys_dict_detail').select(['id', 'dict_id']).where('id', '=', req.body.id).executeTakeFirst();
    if (!current) throw notFound('DICT_DETAIL_NOT_FOUND');
    const values = await detailValues(req.body, current.dict_id, current.id);
    await db.updateTable('sys_dict_detail').set(values).where('id', '=', current.id).execute();
    return { id: current.id, label: values.label, value: values.value, type: values.type, dictSort: values.sort };
  });

  app.delete(
    '/api/dictDetail/:id',
    answers({ permission: 'dict:del', log: '删除字典详情' }, ok, { params: z.object({ id: int }) }),
    async (req) => {
      const r = await db.deleteFrom('sys_dict_detail').where('id', '=', req.params.id).executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw notFound('DICT_DETAIL_NOT_FOUND');
      return { status: 200, message: '删除成功' };
    },
  );

  const dictItem = z.object({ id: z.number(), name: z.string(), description: z.string().nullable(), createTime: z.string().nullable() });

  app.get(
    '/api/dict',
    answers({ permission: 'dict:list' }, z.object({ content: z.array(dictItem), totalElements: z.number() }), {
      querystring: z.object({
        blurry: z.string().optional(),
        ...pageQuery,
      }),
    }),
    async (req) => {
      const sort = parseSort(req.query.sort, { id: 'id', name: 'name', createTime: 'create_time' }, [['id', 'desc']]);
      let q = db.selectFrom('sys_dict');
      const b = req.query.blurry?.trim();
      if (b) {
        const like = containing(b);
        q = q.where((eb) => eb.or([eb('name', 'ilike', like), eb('description', 'ilike', like)]));
      }
      const { content, totalElements } = await paginate(
        q,
        (x) => sort.reduce((o, [col, dir]) => o.orderBy(sql.ref(col), dir), x.selectAll()),
        req.query,
      );
      return {
        content: content.map((r) => ({ id: r.id, name: r.name, description: r.description, createTime: formatTime(r.create_time) })),
        totalElements,
      };
    },
  );

  const dictValues = async (body: z.infer<typeof dictBody>, currentId: number | null) => {
    const name = (body.name ?? '').trim();
    if (!name) throw badRequest('DICT_NAME_REQUIRED');
    if (!/^[A-Za-z][\w]{0,99}$/.test(name)) throw badRequest('DICT_NAME_INVALID');
    let dup = db.selectFrom('sys_dict').select('id').where('name', '=', name);
    if (currentId !== null) dup = dup.where('id', '<>', currentId);
    if (await dup.executeTakeFirst()) throw badRequest('DICT_NAME_TAKEN');
    return { name, description: body.description?.trim() || null };
  };

  app.post(
    '/api/dict',
    { config: { permission: 'dict:add', log: '新增字典' }, schema: { body: dictBody, response: { 201: dictItem } } },
    async (req, reply) => {
      const row = await db
        .insertInto('sys_dict')
        .values(await dictValues(req.body, null))
        .returningAll()
        .executeTakeFirstOrThrow();
      return reply.status(201).send({ id: row.id, name: row.name, description: row.description, createTime: formatTime(row.create_time) });
    },
  );

  app.put('/api/dict', answers({ permission: 'dict:edit', log: '修改字典' }, ok, { body: dictBody }), async (req) => {
    if (!req.body.id) throw badRequest('DICT_ID_REQUIRED');
    const values = await dictValues(req.body, req.body.id);
    const r = await db.updateTable('sys_dict').set(values).where('id', '=', req.body.id).executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw notFound('DICT_NOT_FOUND');
    return { status: 200, message: '操作成功' };
  });

  app.delete(
    '/api/dict',
    answers({ permission: 'dict:del', log: '删除字典' }, ok, { body: z.array(int).min(1, '请选择要删除的数据') }),
    async (req) => {
      await db.deleteFrom('sys_dict').where('id', 'in', req.body).execute();
      return { status: 200, message: '删除成功' };
    },
  );
}
