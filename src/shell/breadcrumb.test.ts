import { describe, expect, it } from 'vitest';
import type { RouteHandle } from '../app/router';
import { breadcrumbFor } from './breadcrumb';
import { flattenMenus } from './menu-routes';
import { MENUS } from './menus.fixture';

const handles = new Map<string, RouteHandle>([
  ['/abandonhome', { title: '首页', affix: true, noCache: true }],
  ['/dashboard', { title: '首页看板' }],
  ['/user/center', { title: '个人中心' }],
  ['/message/systemMessage', { title: '系统消息' }],
  ['/401', { title: '401', hidden: true }],
]);
const flat = flattenMenus(MENUS);
const crumbs = (path: string) => breadcrumbFor(path, { handles, menus: flat });

describe('breadcrumbFor', () => {
  it('prefixes a menu page with 首页 and shows its directories without links', () => {
    expect(crumbs('/dev-tools/temp/page/stockIn/12')).toEqual([
      { title: '首页', path: '/abandonhome' },
      { title: '危废管理' },
      { title: '危废入库' },
    ]);
    expect(crumbs('/system/deep/leaf')).toEqual([
      { title: '首页', path: '/abandonhome' },
      { title: '系统管理' },
      { title: '深层目录' },
      { title: '叶子页面' },
    ]);
  });

  it('has no prefix when the trail starts at the dashboard, and none twice on the home page', () => {
    // Named by its menu, as the sidebar and its tag name it, not by the route table.
    expect(crumbs('/dashboard')).toEqual([{ title: '企业看板' }]);
    expect(crumbs('/abandonhome')).toEqual([{ title: '首页' }]);
  });

  it('uses the route table title for fixed pages and hides hidden ones', () => {
    expect(crumbs('/user/center')).toEqual([{ title: '首页', path: '/abandonhome' }, { title: '个人中心' }]);
    expect(crumbs('/message/systemMessage')).toEqual([
      { title: '首页', path: '/abandonhome' },
      { title: '消息中心' },
      { title: '系统消息' },
    ]);
    expect(crumbs('/401')).toEqual([{ title: '首页', path: '/abandonhome' }]);
  });

  it('skips redirect paths', () => {
    expect(crumbs('/redirect/dev-tools/temp/page/stockIn/12')).toBeNull();
  });

  it('matches a low-code screen by its number and a hidden page by its menu', () => {
    expect(crumbs('/logistics/vBuild/temp/25')).toEqual([
      { title: '首页', path: '/abandonhome' },
      { title: '物流管理' },
      { title: '物流详情' },
    ]);
  });
});
