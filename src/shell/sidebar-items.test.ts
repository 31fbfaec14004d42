import { describe, expect, it } from 'vitest';
import { MENUS } from './menus.fixture';
import { nextOpenKeys, sidebarItems, visiblePages } from './sidebar-items';

describe('sidebarItems', () => {
  const items = sidebarItems(MENUS);

  it('leaves hidden routes and directories of hidden pages out', () => {
    const keys = JSON.stringify(items);
    expect(keys).not.toContain('个人中心');
    expect(keys).not.toContain('物流详情');
    expect(keys).not.toContain('低代码');
  });

  it('makes directories submenus keyed by their full path, pages items keyed by their route', () => {
    expect(items.map((i) => i.key)).toEqual([
      '/dashboard',
      '/message',
      '/waste',
      '/logistics',
      '/stock/vBuild/temp/40',
      '/screen/vBuild/temp/50',
      '/system',
    ]);
    const message = items.find((i) => i.key === '/message');
    expect(message?.children?.map((c) => c.key)).toEqual(['/message/systemMessage', '/message/vBuild/temp/97']);
    const system = items.find((i) => i.key === '/system');
    expect(system?.children?.[1]).toMatchObject({ key: '/system/deep', children: [{ key: '/system/deep/leaf', title: '叶子页面' }] });
  });

  it('shows a lone child directly unless the directory is alwaysShow', () => {
    // 数据大屏 holds one page and is not alwaysShow: the page stands in its place.
    expect(items[5]).toEqual({ key: '/screen/vBuild/temp/50', title: '危废运营大屏', icon: 'monitor', external: false });
    const logistics = items.find((i) => i.key === '/logistics');
    // alwaysShow keeps the submenu even with one visible page.
    expect(logistics?.children?.map((c) => c.title)).toEqual(['物流订单']);
  });

  it('lists the visible pages with their menu trail', () => {
    const pages = visiblePages(items);
    expect(pages.map((p) => p.title)).toEqual([
      '企业看板',
      '系统消息',
      '未读留言',
      '危废入库',
      '危废出库',
      '企业仓库',
      '物流订单',
      '库存管理',
      '危废运营大屏',
      '用户管理',
      '叶子页面',
    ]);
    expect(pages.find((p) => p.title === '叶子页面')?.trail).toEqual(['系统管理', '深层目录', '叶子页面']);
  });
});

describe('nextOpenKeys', () => {
  it('keeps every open submenu when unique-open is off', () => {
    expect(nextOpenKeys(['/waste'], ['/waste', '/system'], false)).toEqual(['/waste', '/system']);
  });

  it('keeps only the newly opened branch when unique-open is on', () => {
    expect(nextOpenKeys(['/waste'], ['/waste', '/system'], true)).toEqual(['/system']);
    expect(nextOpenKeys(['/system'], ['/system', '/system/deep'], true)).toEqual(['/system', '/system/deep']);
    expect(nextOpenKeys(['/system', '/system/deep'], ['/system', '/system/deep', '/waste'], true)).toEqual(['/waste']);
  });

  it('just closes when a submenu is closed', () => {
    expect(nextOpenKeys(['/system', '/system/deep'], ['/system'], true)).toEqual(['/system']);
  });
});
