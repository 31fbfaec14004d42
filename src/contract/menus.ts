/**
 * Menus: the signed-in account's sidebar routes, and the menu tree administrators edit and grant.
 */
import { z } from 'zod';
import type { MenuRoute } from '../shared/menu-route.js';
import { call, resource, write } from './define.js';
import { boundedInt, idList, nullableText, ok, optId, pageOf, sortNum, text } from './fields.js';

/** One route of the sidebar. */
export const routeNodeSchema: z.ZodType<MenuRoute> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    hidden: z.boolean(),
    redirect: z.string().optional(),
    component: z.string(),
    alwaysShow: z.boolean().optional(),
    meta: z.object({ title: z.string(), icon: z.string().nullable(), noCache: z.boolean() }),
    children: z.array(routeNodeSchema).optional(),
  }),
);

/** A menu of the id/label tree (role assignment). */
export interface MenuTreeNode {
  id: number;
  label: string;
  children?: MenuTreeNode[];
}
export const menuTreeSchema: z.ZodType<MenuTreeNode> = z.lazy(() =>
  z.object({ id: z.number(), label: z.string(), children: z.array(menuTreeSchema).optional() }),
);

/** The menu form. */
export const menuBody = z.object({
  id: optId,
  pid: optId,
  type: boundedInt(-999_999, 999_999).optional(),
  title: text.optional(),
  componentName: text.nullable().optional(),
  name: text.nullable().optional(),
  component: text.nullable().optional(),
  path: text.nullable().optional(),
  icon: text.nullable().optional(),
  permission: text.nullable().optional(),
  menuSort: sortNum.optional(),
  sort: sortNum.optional(),
  hidden: z.boolean().optional(),
  cache: z.boolean().optional(),
  iFrame: z.boolean().optional(),
});

/** A menu as the menu page lists it. */
export const menuItem = z.object({
  id: z.number(),
  pid: z.number().nullable(),
  type: z.number(),
  title: z.string(),
  ...nullableText('componentName', 'component', 'path', 'icon', 'permission'),
  menuSort: z.number(),
  hidden: z.boolean(),
  cache: z.boolean(),
  iFrame: z.boolean(),
  hasChildren: z.boolean(),
  createTime: z.string().nullable(),
});
export type MenuItem = z.infer<typeof menuItem>;

/** What the menu form may refuse, adding or editing. */
const FORM_ERRORS = [
  'MENU_TITLE_REQUIRED',
  'MENU_TYPE_INVALID',
  'MENU_PATH_REQUIRED',
  'MENU_PERMISSION_REQUIRED',
  'MENU_PERMISSION_NOT_HELD',
  'MENU_SCREEN_NOT_HELD',
  'PARENT_MENU_NOT_FOUND',
  'PARENT_MENU_CYCLE',
] as const;

export const menus = resource('menus', '菜单', {
  build: call('GET', '/api/menus/build', '当前账号的侧边栏路由', 'session', {
    pending: true,
    answer: z.array(routeNodeSchema),
    errors: [],
  }),
  // Whether an address is a page of any menu, granted or not: a page the user's menus do not grant is
  // refused with its title, and an address that is no page goes home. Titles only, never components.
  page: call('GET', '/api/menus/page', '某地址是否为菜单页面（拒绝访问时说明原因）', 'session', {
    query: z.object({ path: z.string().max(500) }),
    answer: z.object({ title: z.string().nullable() }),
    errors: [],
    example: { query: { path: '/system/user' } },
  }),
  tree: call('GET', '/api/menus/tree', '菜单树（分配菜单）', ['menu:list', 'role:list'], {
    answer: z.array(menuTreeSchema),
    errors: [],
  }),
  list: call('GET', '/api/menus', '菜单列表（一层）', 'menu:list', {
    query: z.object({ pid: optId, blurry: z.string().optional() }),
    answer: pageOf(menuItem),
    errors: [],
  }),
  // The menu tree is every company's, and a menu's permission is a power and its path an entry to a page:
  // only accounts of 全部 change it.
  add: write('POST', '/api/menus', '新增菜单', 'menu:add', {
    platform: true,
    body: menuBody,
    status: 201,
    answer: z.object({ id: z.number() }),
    errors: FORM_ERRORS,
  }),
  edit: write('PUT', '/api/menus', '修改菜单', 'menu:edit', {
    platform: true,
    body: menuBody,
    answer: ok,
    errors: [...FORM_ERRORS, 'MENU_ID_REQUIRED', 'MENU_NOT_FOUND'],
  }),
  remove: write('DELETE', '/api/menus', '删除菜单', 'menu:del', {
    platform: true,
    body: idList,
    answer: ok,
    errors: ['NOTHING_TO_DELETE'],
    example: { body: [2147483000] },
  }),
});
