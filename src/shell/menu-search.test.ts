import { describe, expect, it } from 'vitest';
import { createMenuSearch } from './menu-search';
import { MENUS } from './menus.fixture';
import { sidebarItems, visiblePages } from './sidebar-items';

describe('createMenuSearch', () => {
  const search = createMenuSearch(visiblePages(sidebarItems(MENUS)));

  it('finds a page by a misspelled or partial title', () => {
    expect(search.search('危废入仓')[0]?.title).toBe('危废入库');
    expect(search.search('入库')[0]?.title).toBe('危废入库');
    expect(search.search('用户')[0]?.path).toBe('/system/user');
  });

  it('finds pages by their section and by their path', () => {
    expect(search.search('危废管理').map((p) => p.title)).toEqual(expect.arrayContaining(['危废入库', '危废出库', '企业仓库']));
    expect(search.search('logisticsOrder')[0]?.title).toBe('物流订单');
  });

  it('offers no hidden page and nothing for an empty or unrelated query', () => {
    expect(search.search('物流详情').map((p) => p.title)).not.toContain('物流详情');
    expect(search.search('  ')).toEqual([]);
    expect(search.search('zzzzqqqq')).toEqual([]);
  });
});
