import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { flattenMenus } from './menu-routes';
import { MENUS } from './menus.fixture';
import { affixPaths, pageInfo, staticHandles } from './route-handles';

const routes: RouteObject[] = [
  {
    children: [
      { path: '/login', handle: { title: '登录' } },
      {
        children: [
          { path: '/', handle: undefined },
          { path: '/abandonhome', handle: { title: '首页', affix: true, noCache: true } },
          { path: '/dashboard', handle: { title: '首页看板' } },
          { path: 'user/center', handle: { title: '个人中心' } },
          { path: '/401', handle: { title: '401', hidden: true } },
          { path: '/redirect/*', handle: { title: '', hidden: true } },
          { path: '*' },
        ],
      },
    ],
  },
];

describe('route handles', () => {
  const handles = staticHandles(routes);
  const menus = flattenMenus(MENUS);

  it('collects the fixed paths of the route table', () => {
    expect([...handles.keys()]).toEqual(['/login', '/abandonhome', '/dashboard', '/user/center', '/401']);
    expect(affixPaths(handles)).toEqual([{ path: '/abandonhome', title: '首页' }]);
  });

  it('gives menu pages the menu title, other route-table pages their own, and 首页 always its own', () => {
    expect(pageInfo('/dashboard', { handles, menus })).toEqual({ path: '/dashboard', title: '企业看板', affix: false, noCache: true });
    expect(pageInfo('/dashboard', { handles, menus: [] })).toEqual({ path: '/dashboard', title: '首页看板', affix: false, noCache: false });
    expect(pageInfo('/abandonhome/', { handles, menus })).toEqual({ path: '/abandonhome', title: '首页', affix: true, noCache: true });
    expect(pageInfo('/dev-tools/temp/page/warehouse/14', { handles, menus })).toEqual({
      path: '/dev-tools/temp/page/warehouse/14',
      title: '企业仓库',
      affix: false,
      noCache: false,
    });
  });

  it('gives no tag to hidden routes, directories and unknown paths', () => {
    expect(pageInfo('/401', { handles, menus })).toBeNull();
    expect(pageInfo('/redirect/dashboard', { handles, menus }, { title: '', hidden: true })).toBeNull();
    expect(pageInfo('/waste', { handles, menus })).toBeNull();
    expect(pageInfo('/nowhere', { handles, menus })).toBeNull();
  });
});
