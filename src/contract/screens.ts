/**
 * Screens (/api/screen): base previews, big screens, form previews and containers; the designers' list,
 * form, delete and design, and a screen as its page reads it. Every call but the detail is for accounts
 * of 全部; the detail follows the user's menus (server/access/screens.ts).
 */
import { z } from 'zod';
import { call, resource, write } from './define.js';
import {
  added,
  designerList,
  designerRemove,
  designName,
  designTimes,
  lowcodeId,
  nullableMenuId,
  saved,
  status01,
  versionField,
} from './lowcode-fields.js';

/** A screen's type: 1 base preview, 2 big screen, 3 form preview, 4 container. */
export const screenType = z.coerce.number().int().min(1, 'type 只能是 1、2、3、4').max(4, 'type 只能是 1、2、3、4');

/** A screen as its share link answers it: without its version. */
export const sharedScreen = z.object({
  id: z.number(),
  name: z.string(),
  menuId: z.number().nullable(),
  status: z.number(),
  type: z.number(),
  disMenu: z.string().nullable(),
  disTemplate: z.string().nullable(),
  ...designTimes,
});

/** A screen as answered: its JSON texts as stored, and the version its designer saves from. */
export const screenRow = sharedScreen.extend({ version: z.number() });
export type ScreenRow = z.infer<typeof screenRow>;

/** What checking a screen's template may refuse. */
const TEMPLATE_ERRORS = ['TEMPLATE_REQUIRED', 'JSON_TEXT_INVALID', 'DEFINITION_INVALID', 'VIEW_MISSING', 'DATA_VIEW_MISSING'] as const;

const screenForm = {
  name: designName,
  menuId: nullableMenuId,
  status: status01.optional(),
  type: screenType,
  disMenu: z.unknown().optional(),
};

export const screens = resource('screens', '大屏与预览页', {
  list: designerList(
    '/api/screen/list',
    '大屏列表',
    'screen:list',
    {
      name: z.string().optional(),
      type: z.preprocess((v) => (v === '' ? undefined : v), screenType.optional()),
      status: status01.optional(),
    },
    screenRow,
  ),
  // Open to a screen designer of 全部, or to those whose menus lead to the screen; a list, form or tab
  // screen also to those who may list every view it draws. A big screen only through a menu.
  detail: call('GET', '/api/screen/detail', '大屏定义（页面按它绘制）', 'session', {
    query: z.object({ id: lowcodeId }),
    answer: screenRow,
    errors: ['SCREEN_NOT_FOUND', 'SCREEN_FORBIDDEN'],
    example: { query: { id: 50 } },
  }),
  add: write('POST', '/api/screen/add', '新增大屏', 'screen:add', {
    platform: true,
    body: z.object(screenForm),
    answer: added,
    errors: ['JSON_TEXT_INVALID'],
  }),
  update: write('POST', '/api/screen/update', '修改大屏', 'screen:edit', {
    platform: true,
    body: z.object({ ...screenForm, id: lowcodeId, type: screenType.optional(), version: versionField }),
    answer: saved,
    errors: [...TEMPLATE_ERRORS, 'SCREEN_NOT_FOUND', 'SCREEN_CONFLICT'],
  }),
  remove: designerRemove('/api/screen/delete', '删除大屏', 'screen:del', []),
  design: call('POST', '/api/screen/design', '保存大屏设计', 'screen:design', {
    platform: true,
    log: '设计大屏',
    body: z.object({ id: lowcodeId, disTemplate: z.unknown(), version: versionField }),
    answer: saved,
    errors: [...TEMPLATE_ERRORS, 'SCREEN_NOT_FOUND', 'SCREEN_CONFLICT'],
  }),
});
