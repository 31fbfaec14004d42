/**
 * A designed view's records (/api/general/…, the view id a path parameter or `generalId`): its list,
 * a record, the add, edit and delete forms, the options of linked selects, script actions, imports and
 * exports. Permissions follow the view's disMenu.componentName: `{c}:list` reads, `{c}:add`, `{c}:edit`,
 * `{c}:del` write; a record outside the caller's data scope is answered as missing (404).
 */
import { z } from 'zod';
import { type CallSpec, call, FILE, MULTIPART, resource } from './define.js';
import { pageOf } from './fields.js';
import { added, deleteIds, done, lowcodeId } from './lowcode-fields.js';

/** A record of a view: its fields by name. */
export const viewRecord = z.record(z.string(), z.unknown());
/** `{ status, data }`: a record, or the values an add form starts with. */
const recordAnswer = z.object({ status: z.number(), data: viewRecord });
/** A record a form edits: with the fields the caller may change when it may change only some. */
const formRecordAnswer = recordAnswer.extend({
  writable: z
    .array(z.string())
    .optional()
    .describe('调用者作为非创建方的相关方或留言接收部门时可修改的字段名（可能为空）；缺省时可修改整条记录'),
});

const viewParams = z.object({ viewId: lowcodeId });
/** The view and its record keys of the form calls: `generalId` and any field's values. */
export const generalQuery = z.object({ generalId: lowcodeId }).catchall(z.union([z.string(), z.array(z.string())]));

/** What reading a view's definition may refuse, and the view's permissions. */
const VIEW_ERRORS = ['VIEW_NOT_FOUND', 'VIEW_NOT_DESIGNED', 'VIEW_DEFINITION_BROKEN', 'NO_PERMISSION'] as const;
/** What reading a list's query may refuse. */
const LIST_ERRORS = [
  'LIST_PARAM_NOT_WHOLE',
  'LIST_PARAM_TOO_LARGE',
  'LIST_TIME_INVALID',
  'LIST_FILTER_FIELD_NOT_FOUND',
  'LIST_FILTER_INVALID',
  'LIST_SORT_FIELD_NOT_FOUND',
  'LIST_SORT_DIRECTION_INVALID',
] as const;
/** What a record's add or edit may refuse (a form's problems are INVALID_INPUT with `errors`). */
const WRITE_ERRORS = [...VIEW_ERRORS, 'DATA_NOT_FOUND'] as const;
const ID_LIST_ERRORS = ['NOTHING_TO_DELETE', 'ID_NOT_POSITIVE', 'ID_TOO_LARGE'] as const;
/** What an add or edit refuses of the parties and recipients a record names, and of what they own. */
const PARTY_WRITE_ERRORS = [
  'RECORD_PARTY_EDIT_DENIED',
  'RECORD_PARTY_SELF_REQUIRED',
  'RECORD_PARTY_REFERENCED',
  'INQUIRY_PARTY_FIXED',
  'RECORD_RECIPIENT_EDIT_DENIED',
  'MESSAGE_RECIPIENT_FIXED',
  'CONFLICT',
] as const;
/** What reading an uploaded workbook may refuse. */
const IMPORT_ERRORS = [
  'FILE_REQUIRED',
  'IMPORT_TYPE_NOT_ALLOWED',
  'IMPORT_FILE_TOO_LARGE',
  'IMPORT_EMPTY',
  'IMPORT_HEADER_MISMATCH',
  'IMPORT_XLS_UNREADABLE',
  'IMPORT_NOT_XLSX',
  'IMPORT_ENCRYPTED',
  'IMPORT_SIZE_MISMATCH',
  'IMPORT_UNPACKED_TOO_LARGE',
  'IMPORT_RATIO_TOO_HIGH',
  'IMPORT_TOO_MANY_ROWS',
  'IMPORT_TOO_MANY_COLUMNS',
  'IMPORT_CELL_TOO_LONG',
  'IMPORT_TEXT_TOO_LARGE',
] as const;

/** A generated document number refused: typed as today's or as one the company has, or a day's series used up. */
const DOC_NUMBER_ERRORS = ['DOC_NUMBER_TAKEN', 'DOC_NUMBER_RESERVED', 'DOC_NUMBER_EXHAUSTED'] as const;

/** The add form's record, read field by field by the view's form. */
const recordBody = z.unknown();

const addCall = <M extends 'POST' | 'PUT'>(method: M) =>
  call({
    method,
    path: '/api/general/add/:viewId',
    // A body with an id changes that record: a form's one submit URL serves both add and edit.
    summary: '新增记录',
    access: 'session',
    params: viewParams,
    body: recordBody,
    answer: added,
    errors: [...WRITE_ERRORS, ...DOC_NUMBER_ERRORS, 'ID_REQUIRED', ...PARTY_WRITE_ERRORS],
  }) satisfies CallSpec;
const updateCall = <M extends 'POST' | 'PUT'>(method: M) =>
  call({
    method,
    path: '/api/general/update/:viewId',
    summary: '修改记录',
    access: 'session',
    params: viewParams,
    body: recordBody,
    answer: done,
    errors: [...WRITE_ERRORS, 'ID_REQUIRED', ...PARTY_WRITE_ERRORS],
  }) satisfies CallSpec;
/** An export: the list's filters (as the list reads them), and `fields`, `headers` naming the columns. */
const exportCall = <P extends `/api/${string}`>(path: P) =>
  call({
    method: 'GET',
    path,
    summary: '导出记录',
    access: 'session',
    tokenInQuery: true,
    params: viewParams,
    answer: FILE,
    errors: [...VIEW_ERRORS, ...LIST_ERRORS, 'EXPORT_FIELD_NOT_FOUND'],
    example: { params: { viewId: 12 } },
  }) satisfies CallSpec;

export const general = resource('general', '视图记录', {
  // The query holds the list's filters, `page`, `size` and `sort`, as src/engine/list/query.ts writes them.
  list: call('GET', '/api/general/list/:viewId', '记录列表', 'session', {
    params: viewParams,
    answer: pageOf(viewRecord).extend({
      totalEstimated: z
        .literal(true)
        .optional()
        .describe('totalElements 是估计值：筛选出的记录超过 10000 条时不逐条计数，界面显示为「约 N 条」'),
    }),
    errors: [...VIEW_ERRORS, ...LIST_ERRORS],
    example: { params: { viewId: 12 } },
  }),
  detail: call('GET', '/api/general/detail', '一条记录', 'session', {
    query: z.object({ generalId: lowcodeId, id: lowcodeId }),
    answer: viewRecord,
    errors: [...VIEW_ERRORS, 'DATA_NOT_FOUND'],
    example: { query: { generalId: 12, id: 1 } },
  }),
  add: addCall('POST'),
  addPut: addCall('PUT'),
  update: updateCall('POST'),
  updatePut: updateCall('PUT'),
  remove: call('POST', '/api/general/delete/:viewId', '删除记录', 'session', {
    params: viewParams,
    body: deleteIds,
    answer: done,
    errors: [...WRITE_ERRORS, ...ID_LIST_ERRORS, 'RECORD_PARTY_DELETE_DENIED', 'RECORD_RECIPIENT_DELETE_DENIED'],
  }),
  queryLink: call('GET', '/api/general/allList/:viewId/queryLink', '关联选择的选项', 'session', {
    params: viewParams,
    query: z.object({ queryParam: z.string().optional() }),
    answer: z.array(z.object({ label: z.string(), value: z.number() })),
    errors: [...VIEW_ERRORS, ...LIST_ERRORS, 'QUERY_LINK_FILTER_DENIED'],
    example: { params: { viewId: 12 } },
  }),
  groovy: call('POST', '/api/general/groovy/:viewId', '执行脚本动作', 'session', {
    params: viewParams,
    body: z.object({ groovyQueryParam: z.unknown(), ids: z.unknown() }).partial(),
    answer: z.record(z.string(), z.unknown()),
    errors: [
      ...WRITE_ERRORS,
      ...ID_LIST_ERRORS,
      'SCRIPT_ACTION_UNKNOWN',
      'NOTHING_SELECTED',
      'VIEW_NO_STATUS',
      'RECORD_PARTY_EDIT_DENIED',
      'RECORD_RECIPIENT_EDIT_DENIED',
    ],
  }),
  preAdd: call('POST', '/api/general/preAdd/:viewId', '新增表单的默认值', 'session', {
    params: viewParams,
    answer: recordAnswer,
    errors: VIEW_ERRORS,
  }),
  import: call('POST', '/api/general/:viewId/import', '导入记录（答复带每行结果的工作簿）', 'session', {
    params: viewParams,
    body: MULTIPART,
    answer: FILE,
    errors: [...VIEW_ERRORS, ...IMPORT_ERRORS, ...DOC_NUMBER_ERRORS, 'CONFLICT'],
  }),
  template: call('GET', '/api/general/:viewId/template', '导入模板', 'session', {
    tokenInQuery: true,
    params: viewParams,
    answer: FILE,
    errors: VIEW_ERRORS,
    example: { params: { viewId: 12 } },
  }),
  download: exportCall('/api/general/:viewId/download'),
  // Seeded definitions set dialogOption.export to /api/general/export/{viewId}; the page calls {export}/download.
  exportDownload: exportCall('/api/general/export/:viewId/download'),
  formData: call('GET', '/api/general/formData', '表单编辑或查看的记录', 'session', {
    query: generalQuery,
    answer: formRecordAnswer,
    errors: [...VIEW_ERRORS, 'DATA_NOT_FOUND', 'ID_REQUIRED', 'RECORD_KEY_REQUIRED'],
    example: { query: { generalId: 12, id: '1' } },
  }),
  dynamicQuery: call('GET', '/api/general/dynamicQuery', '新增表单的初始值', 'session', {
    query: generalQuery,
    answer: recordAnswer,
    errors: VIEW_ERRORS,
    example: { query: { generalId: 12, id: '1' } },
  }),
});
