/**
 * View definitions (/api/generation): the list of views, a definition as a page reads it, and the
 * designers' add, edit, delete, design and publish. Every call but the detail is for accounts of 全部.
 */
import { z } from 'zod';
import { call, resource, write } from './define.js';
import {
  added,
  designerList,
  designerRemove,
  designName,
  designTimes,
  done,
  lowcodeId,
  nullableMenuId,
  saved,
  status01,
  versionField,
} from './lowcode-fields.js';

/** A view definition as answered: its JSON texts as stored. */
export const viewDefinition = z.object({
  id: z.number(),
  name: z.string(),
  menuId: z.number().nullable(),
  status: z.number(),
  disMenu: z.string().nullable(),
  disTemplate: z.string().nullable(),
  version: z.number(),
  ...designTimes,
});
export type ViewDefinitionRow = z.infer<typeof viewDefinition>;

/** What checking, storing and building a template may refuse. */
const DESIGN_ERRORS = [
  'TEMPLATE_REQUIRED',
  'JSON_TEXT_INVALID',
  'DEFINITION_INVALID',
  'FIELD_TYPE_CHANGE_FAILED',
  'VIEW_PRIVATE_NAME_FIXED',
  'VIEW_ACCESS_NAME_TAKEN',
  'VIEW_ACCESS_NAME_SHARED',
  'VIEW_PICKED_FOR_ACCESS',
  'VIEW_ACCESS_FIELD_REQUIRED',
] as const;

const viewForm = {
  name: designName,
  menuId: nullableMenuId,
  status: status01.optional(),
  disMenu: z.unknown().optional(),
  disTemplate: z.unknown().optional(),
};

export const generation = resource('generation', '视图定义', {
  list: designerList(
    '/api/generation/list',
    '视图列表',
    'generation:list',
    { name: z.string().optional(), status: status01.optional() },
    viewDefinition,
  ),
  detail: call('GET', '/api/generation/detail', '视图定义（页面按它绘制）', 'session', {
    query: z.object({ id: lowcodeId }),
    answer: viewDefinition,
    errors: ['VIEW_NOT_FOUND', 'NO_PERMISSION'],
    example: { query: { id: 12 } },
  }),
  add: write('POST', '/api/generation/add', '新增视图', 'generation:add', {
    platform: true,
    body: z.object(viewForm),
    answer: added,
    errors: [...DESIGN_ERRORS, 'VIEW_NOT_DESIGNED_PUBLISH'],
  }),
  update: write('POST', '/api/generation/update', '修改视图', 'generation:edit', {
    platform: true,
    body: z.object({ ...viewForm, id: lowcodeId, version: versionField }),
    answer: saved,
    errors: [...DESIGN_ERRORS, 'VIEW_NOT_FOUND', 'VIEW_CONFLICT', 'VIEW_NOT_DESIGNED_PUBLISH'],
  }),
  remove: designerRemove('/api/generation/delete', '删除视图', 'generation:del', ['VIEW_PICKED_FOR_ACCESS']),
  design: call('POST', '/api/generation/design', '保存视图设计', 'generation:design', {
    platform: true,
    log: '设计视图',
    body: z.object({ id: lowcodeId, disTemplate: z.unknown(), disMenu: z.unknown().optional(), version: versionField }),
    answer: saved,
    errors: [...DESIGN_ERRORS, 'VIEW_NOT_FOUND', 'VIEW_CONFLICT'],
  }),
  publish: write('POST', '/api/generation/publish', '发布视图', 'generation:publish', {
    platform: true,
    body: z.object({ id: lowcodeId }),
    answer: done,
    errors: [
      ...DESIGN_ERRORS,
      'VIEW_NOT_FOUND',
      'VIEW_NOT_DESIGNED_PUBLISH',
      'PARENT_MENU_NOT_FOUND',
      'VIEW_PERMISSION_TAKEN',
      'VIEW_CONFLICT',
    ],
  }),
});
