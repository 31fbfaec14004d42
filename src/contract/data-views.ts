/**
 * SQL data views (/api/data): the builders' list, form, columns and 运行, and a view's rows as a big
 * screen's chart reads them. Every call but the rows is for accounts of 全部.
 */
import { z } from 'zod';
import { ERROR_MESSAGES, type ErrorCode } from '../shared/error-catalogue.js';
import { call, resource, write } from './define.js';
import { added, designerList, designerRemove, designName, designTimes, done, lowcodeId } from './lowcode-fields.js';

/** Who builds data views or charts on them: they read any data view and its columns. */
export const DATA_VIEW_MANAGERS = [
  'dataView:list',
  'dataView:add',
  'dataView:edit',
  'screen:list',
  'screen:add',
  'screen:edit',
  'screen:design',
] as const;

/** A data view's rows: its columns and at most the configured number of rows (`truncated` when there were more). */
export const dataViewRows = z.object({
  columns: z.array(z.string()),
  list: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean(),
});

/** A data view with its rows, as a chart reads it. */
export const dataViewAnswer = dataViewRows.extend({ id: z.number(), name: z.string() });
export type DataViewAnswer = z.infer<typeof dataViewAnswer>;

/** A data view as the builders' list answers it. */
export const dataViewRow = z.object({ id: z.number(), name: z.string(), sql: z.string(), ...designTimes });
export type DataViewRow = z.infer<typeof dataViewRow>;

/** What the SQL checks refuse: every SQL_ code of the catalogue. */
const SQL_ERRORS = (Object.keys(ERROR_MESSAGES) as ErrorCode[]).filter((c) => c.startsWith('SQL_'));

/** What running a data view may refuse, its SQL checked again. */
export const DATA_VIEW_RUN_ERRORS: readonly ErrorCode[] = [
  ...SQL_ERRORS,
  'DATA_VIEW_READ_DENIED',
  'DATA_VIEW_FAILED',
  'DATA_VIEW_TIMED_OUT',
  'DATA_VIEW_REFUSED_ON_PGLITE',
  'DATA_VIEW_NO_ROLE',
  'DATA_VIEW_NO_LOGIN',
];

const sqlText = z.string().min(1, 'SQL 不能为空').max(100_000, 'SQL 过长');
const dataViewForm = { name: designName, sql: sqlText };

export const dataViews = resource('data-views', '数据视图', {
  list: designerList('/api/data/list', '数据视图列表', 'dataView:list', { name: z.string().optional() }, dataViewRow),
  // Open to builders of 全部, and to those whose menus lead to an enabled big screen whose charts read it.
  detail: call('GET', '/api/data/detail', '数据视图的数据（大屏图表读取）', 'session', {
    query: z.object({ id: lowcodeId }),
    answer: dataViewAnswer,
    errors: [...DATA_VIEW_RUN_ERRORS, 'DATA_VIEW_FORBIDDEN', 'DATA_VIEW_NOT_FOUND'],
    example: { query: { id: 5 } },
  }),
  columns: call('GET', '/api/data/columns', '数据视图的列', DATA_VIEW_MANAGERS, {
    platform: true,
    query: z.object({ id: lowcodeId }),
    answer: z.object({ id: z.number(), columns: z.array(z.object({ name: z.string(), type: z.string() })) }),
    errors: [...DATA_VIEW_RUN_ERRORS, 'DATA_VIEW_NOT_FOUND'],
    example: { query: { id: 5 } },
  }),
  add: write('POST', '/api/data/add', '新增数据视图', 'dataView:add', {
    platform: true,
    body: z.object(dataViewForm),
    answer: added,
    errors: DATA_VIEW_RUN_ERRORS,
  }),
  update: write('POST', '/api/data/update', '修改数据视图', 'dataView:edit', {
    platform: true,
    body: z.object({ ...dataViewForm, id: lowcodeId }),
    answer: done,
    errors: [...DATA_VIEW_RUN_ERRORS, 'DATA_VIEW_NOT_FOUND'],
  }),
  run: call('POST', '/api/data/run', '运行未保存的 SQL（前若干行）', ['dataView:add', 'dataView:edit'], {
    platform: true,
    body: z.object({ sql: sqlText }),
    answer: dataViewRows.extend({ elapsedMs: z.number() }),
    errors: DATA_VIEW_RUN_ERRORS,
  }),
  remove: designerRemove('/api/data/delete', '删除数据视图', 'dataView:del', ['DATA_VIEW_IN_USE']),
});
