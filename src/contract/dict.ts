/**
 * Dictionaries: named lists of label/value entries that forms and tables show, read by every page
 * (one before sign-in) and edited by administrators.
 */
import { z } from 'zod';
import { call, resource, write } from './define.js';
import { INT4_MAX, ok } from './fields.js';
import { pageFields, pageQuery } from './paging.js';

/** The tag types an entry may show as ('' is the default tag). */
export const TAG_TYPES = ['', 'success', 'info', 'warning', 'danger'] as const;

/** A dictionary entry as answered. */
export const dictEntry = z.object({ id: z.number(), label: z.string(), value: z.string(), type: z.string(), dictSort: z.number() });
export type DictEntry = z.infer<typeof dictEntry>;
const entryPage = z.object({ content: z.array(dictEntry), totalElements: z.number() });
const entriesQuery = z.object({
  dictName: z.string().optional(),
  ...pageFields,
});

// The dictionary forms read ids and entries with zod's own messages.
const dictInt = z.coerce.number().int().min(0).max(INT4_MAX);
const dictOptId = z.union([dictInt, z.null()]).optional();
const entryText = z.union([z.string(), z.number()]).transform(String).optional();

/** The entry form. */
export const entryBody = z.object({
  id: dictOptId,
  label: entryText,
  value: entryText,
  type: z.string().max(20).nullable().optional(),
  dictSort: z.coerce.number().int().min(-999_999).max(999_999).optional(),
  sort: z.coerce.number().int().min(-999_999).max(999_999).optional(),
  dict: z.object({ id: dictInt }).optional(),
  dictId: dictOptId,
  dictName: z.string().optional(),
});

/** The dictionary form. */
export const dictBody = z.object({
  id: dictOptId,
  name: z.string().optional(),
  description: z.string().max(255, '长度不能超过255个字符').nullable().optional(),
});

/** A dictionary as answered. */
export const dictItem = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  createTime: z.string().nullable(),
});
export type DictItem = z.infer<typeof dictItem>;

/** What the entry form may refuse, adding or editing. */
const ENTRY_ERRORS = [
  'DICT_LABEL_REQUIRED',
  'DICT_VALUE_REQUIRED',
  'DICT_TEXT_TOO_LONG',
  'DICT_TAG_TYPE_INVALID',
  'DICT_VALUE_TAKEN',
] as const;
/** What the dictionary form may refuse, adding or editing. */
const DICT_ERRORS = ['DICT_NAME_REQUIRED', 'DICT_NAME_INVALID', 'DICT_NAME_TAKEN'] as const;

export const dict = resource('dict', '字典', {
  entries: call('GET', '/api/dictDetail', '一个字典的条目', 'session', {
    query: entriesQuery,
    answer: entryPage,
    errors: [],
    example: { query: { dictName: 'user_status', page: 0, size: 10 } },
  }),
  entryMap: call('GET', '/api/dictDetail/map', '多个字典的条目，按字典名', 'session', {
    query: z.object({ dictName: z.union([z.string(), z.array(z.string())]).optional() }),
    answer: z.record(z.string(), z.array(dictEntry)),
    errors: [],
  }),
  publicEntries: call('GET', '/api/dictDetail/getDictNotLogin', '一个字典的条目（登录前）', 'public', {
    query: entriesQuery,
    answer: entryPage,
    errors: [],
  }),
  // Dictionaries are every company's labels: only accounts of 全部 change them.
  addEntry: write('POST', '/api/dictDetail', '新增字典详情', 'dict:add', {
    platform: true,
    body: entryBody,
    status: 201,
    answer: dictEntry,
    errors: [...ENTRY_ERRORS, 'DICT_REQUIRED', 'DICT_NOT_FOUND'],
  }),
  editEntry: write('PUT', '/api/dictDetail', '修改字典详情', 'dict:edit', {
    platform: true,
    body: entryBody,
    answer: dictEntry,
    errors: [...ENTRY_ERRORS, 'DICT_DETAIL_ID_REQUIRED', 'DICT_DETAIL_NOT_FOUND'],
  }),
  removeEntry: write('DELETE', '/api/dictDetail/:id', '删除字典详情', 'dict:del', {
    platform: true,
    params: z.object({ id: dictInt }),
    answer: ok,
    errors: ['DICT_DETAIL_NOT_FOUND'],
    example: { params: { id: 2147483000 } },
  }),
  list: call('GET', '/api/dict', '字典列表', 'dict:list', {
    query: z.object({
      blurry: z.string().optional(),
      ...pageQuery,
    }),
    answer: z.object({ content: z.array(dictItem), totalElements: z.number() }),
    errors: ['SORT_FIELD_UNSUPPORTED', 'SORT_DIRECTION_UNSUPPORTED'],
    example: { query: { page: 0, size: 10 } },
  }),
  add: write('POST', '/api/dict', '新增字典', 'dict:add', {
    platform: true,
    body: dictBody,
    status: 201,
    answer: dictItem,
    errors: DICT_ERRORS,
  }),
  edit: write('PUT', '/api/dict', '修改字典', 'dict:edit', {
    platform: true,
    body: dictBody,
    answer: ok,
    errors: [...DICT_ERRORS, 'DICT_ID_REQUIRED', 'DICT_NOT_FOUND'],
  }),
  remove: write('DELETE', '/api/dict', '删除字典', 'dict:del', {
    platform: true,
    body: z.array(dictInt).min(1, '请选择要删除的数据'),
    answer: ok,
    errors: ['NOTHING_TO_DELETE'],
    example: { body: [2147483000] },
  }),
});
