import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { z } from 'zod';
import { type DictEntry, dict, type dictBody, type entryBody, TAG_TYPES } from '../../src/contract/dict.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { formatTime, parseSort } from '../lib/accounts-users.js';
import { pageParams, paginate } from '../lib/paging.js';
import { containing } from '../lib/sql.js';
import { registerResource, writerOf } from './register.js';

async function entriesOf(db: Kysely<DB>, names: string[]): Promise<Map<string, DictEntry[]>> {
  const out = new Map<string, DictEntry[]>(names.map((n) => [n, []]));
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

function paged(list: DictEntry[], page: number | undefined, size: number | undefined) {
  const { limit, offset } = pageParams(page, size ?? 9999);
  return { content: list.slice(offset, offset + limit), totalElements: list.length };
}

/** `dictName=a,b` and `dictName=a&dictName=b` both name several dictionaries. */
function names(raw: unknown): string[] {
  const list = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : []));
  return [...new Set(list.map((s) => s.trim()).filter(Boolean))];
}

/** Dictionaries and their entries. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const detailValues = async (body: z.infer<typeof entryBody>, dictId: number, currentId: number | null) => {
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

  const dictValues = async (body: z.infer<typeof dictBody>, currentId: number | null) => {
    const name = (body.name ?? '').trim();
    if (!name) throw badRequest('DICT_NAME_REQUIRED');
    if (!/^[A-Za-z][\w]{0,99}$/.test(name)) throw badRequest('DICT_NAME_INVALID');
    let dup = db.selectFrom('sys_dict').select('id').where('name', '=', name);
    if (currentId !== null) dup = dup.where('id', '<>', currentId);
    if (await dup.executeTakeFirst()) throw badRequest('DICT_NAME_TAKEN');
    return { name, description: body.description?.trim() || null };
  };

  registerResource(app, dict, {
    entries: async (req) => {
      const name = req.query.dictName?.trim() ?? '';
      const list = name ? ((await entriesOf(db, [name])).get(name) ?? []) : [];
      return paged(list, req.query.page, req.query.size);
    },
    entryMap: async (req) => Object.fromEntries(await entriesOf(db, names(req.query.dictName))),
    publicEntries: async (req) => {
      // Any dictionary, before sign-in: dictionaries hold labels, not secrets (an unknown name has no entries).
      const name = req.query.dictName?.trim() ?? '';
      return paged((await entriesOf(db, [name])).get(name) ?? [], req.query.page, req.query.size);
    },
    addEntry: async (req) => {
      const { dict, dictId, dictName } = req.body;
      let q = db.selectFrom('sys_dict').select('id');
      const wanted = dict?.id ?? dictId;
      if (wanted) q = q.where('id', '=', wanted);
      else if (dictName?.trim()) q = q.where('name', '=', dictName.trim());
      else throw badRequest('DICT_REQUIRED');
      const d = await q.executeTakeFirst();
      if (!d) throw badRequest('DICT_NOT_FOUND');
      const values = await detailValues(req.body, d.id, null);
      const row = await writerOf(req)
        .insertInto('sys_dict_detail')
        .values({ ...values, dict_id: d.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, label: values.label, value: values.value, type: values.type, dictSort: values.sort };
    },
    editEntry: async (req) => {
      if (!req.body.id) throw badRequest('DICT_DETAIL_ID_REQUIRED');
      const current = await db.selectFrom('sys_dict_detail').select(['id', 'dict_id']).where('id', '=', req.body.id).executeTakeFirst();
      if (!current) throw notFound('DICT_DETAIL_NOT_FOUND');
      const values = await detailValues(req.body, current.dict_id, current.id);
      await writerOf(req).updateTable('sys_dict_detail').set(values).where('id', '=', current.id).execute();
      return { id: current.id, label: values.label, value: values.value, type: values.type, dictSort: values.sort };
    },
    removeEntry: async (req) => {
      const r = await writerOf(req).deleteFrom('sys_dict_detail').where('id', '=', req.params.id).executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw notFound('DICT_DETAIL_NOT_FOUND');
      return { status: 200, message: '删除成功' };
    },
    list: async (req) => {
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
    add: async (req) => {
      const row = await writerOf(req)
        .insertInto('sys_dict')
        .values(await dictValues(req.body, null))
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: row.id, name: row.name, description: row.description, createTime: formatTime(row.create_time) };
    },
    edit: async (req) => {
      if (!req.body.id) throw badRequest('DICT_ID_REQUIRED');
      const values = await dictValues(req.body, req.body.id);
      const r = await writerOf(req).updateTable('sys_dict').set(values).where('id', '=', req.body.id).executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw notFound('DICT_NOT_FOUND');
      return { status: 200, message: '操作成功' };
    },
    remove: async (req) => {
      await writerOf(req).deleteFrom('sys_dict').where('id', 'in', req.body).execute();
      return { status: 200, message: '删除成功' };
    },
  });
}
