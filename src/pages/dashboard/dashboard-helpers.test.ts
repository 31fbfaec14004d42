import { describe, expect, it } from 'vitest';
import type { MenuRoute } from '../../shared/menu-route';
import { dashboardKind } from './home-kind';
import { namedRouteHref, pathOfNamedRoute } from './named-routes';
import { summaryTileQueries } from './tile-filters';

const route = (name: string, path: string, children?: MenuRoute[]): MenuRoute => ({
  name,
  path,
  hidden: false,
  component: children ? 'Layout' : 'x',
  meta: { title: name, icon: null, noCache: true },
  ...(children ? { children } : {}),
});

describe('dashboardKind', () => {
  it('gives the supervisory department its home, then goes by the permission value', () => {
    expect(dashboardKind({ deptCode: '01', permission: 'logistics' })).toBe('supervisor');
    expect(dashboardKind({ deptCode: '0101', permission: null })).toBe('full');
    expect(dashboardKind({ deptCode: '04', permission: 'logistics' })).toBe('logistics');
    expect(dashboardKind({ deptCode: '05', permission: 'collectionPoint' })).toBe('collectionPoint');
    expect(dashboardKind({ deptCode: null, permission: 'other' })).toBe('full');
    expect(dashboardKind({ deptCode: null, permission: null })).toBe('full');
  });
});

describe('named routes', () => {
  const menus = [
    route('Dashboard', 'dashboard'),
    route('', '/supervision', [route('summaryPage', 'summaryPage'), route('contractManage', '/dev-tools/temp/page/contractManage/16')]),
  ];

  it('finds a page by its route name, relative and absolute paths alike', () => {
    expect(pathOfNamedRoute(menus, 'summaryPage')).toBe('/supervision/summaryPage');
    expect(pathOfNamedRoute(menus, 'contractManage')).toBe('/dev-tools/temp/page/contractManage/16');
    expect(pathOfNamedRoute(menus, 'Dashboard')).toBe('/dashboard');
    expect(pathOfNamedRoute(menus, 'companyMange')).toBeNull();
  });

  it('adds the query, and gives null for a route the user has not got', () => {
    expect(namedRouteHref(menus, 'summaryPage', { haveYearCount: 1, haveServerCount: 0 })).toBe(
      '/supervision/summaryPage?haveYearCount=1&haveServerCount=0',
    );
    expect(namedRouteHref(menus, 'summaryPage')).toBe('/supervision/summaryPage');
    expect(namedRouteHref([], 'summaryPage', { a: 1 })).toBeNull();
  });
});

describe('tile filters', () => {
  const menus = [route('', '/supervision', [route('microServe', '/dev-tools/temp/page/microServe/19')])];

  it('writes several values of a filter as one parameter each, as a list search reads several choices', () => {
    expect(namedRouteHref(menus, 'microServe', { orderStatus: ['0', '1'], page: 2 })).toBe(
      '/dev-tools/temp/page/microServe/19?orderStatus=0&orderStatus=1&page=2',
    );
  });

  it("opens each summary tile's list on the year and statuses its figure counts", () => {
    const q = summaryTileQueries(2026);
    expect(q.server).toEqual({ orderStatus: ['0', '1', '2'], startTime: '2026-01-01 00:00:00', endTime: '2026-12-31 23:59:59' });
    expect(q.contract).toEqual({ contractStatus: ['1', '2', '3'], signDate: ['2026-01-01', '2026-12-31'] });
    expect(q.transshipment).toEqual({ orderStatus: ['0', '1', '2'], loadTime: ['2026-01-01', '2026-12-31'] });
  });
});
