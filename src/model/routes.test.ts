import { describe, expect, it } from 'vitest';
import {
  findMenu,
  joinMenuPath,
  lowcodePageOf,
  menuEntries,
  screenOfPath,
  screenPathIn,
  screenPreviewPath,
  trimPath,
  viewPath,
} from './routes.js';

describe('routes', () => {
  it('builds the low-code addresses', () => {
    expect(viewPath('stockIn', 12)).toBe('/dev-tools/temp/page/stockIn/12');
    expect(screenPathIn('/dispose/', 30)).toBe('/dispose/vBuild/temp/30');
    expect(screenPreviewPath(40)).toBe('/dev-tools/vBuild/temp/40');
    expect(trimPath('/a/b//')).toBe('/a/b');
    expect(trimPath('/')).toBe('/');
  });

  it('reads what an address draws, with or without a query, a hash or a trailing slash', () => {
    expect(lowcodePageOf('/stock/dev-tools/temp/page/stockIn/12/')).toEqual({ kind: 'view', id: 12, componentName: 'stockIn' });
    expect(lowcodePageOf('/message/vBuild/temp/97?x=1#y')).toEqual({ kind: 'screen', id: 97 });
    expect(lowcodePageOf('vBuild/temp/5')).toEqual({ kind: 'screen', id: 5 });
    expect(lowcodePageOf('/xvBuild/temp/5')).toBeUndefined();
    expect(lowcodePageOf('/vBuild/temp/1234567890')).toBeUndefined();
    expect(lowcodePageOf('/dashboard')).toBeUndefined();
    expect(screenOfPath('/screen/vBuild/temp/50')).toBe(50);
    expect(screenOfPath('/dev-tools/temp/page/a/1')).toBeUndefined();
    expect(screenOfPath(null)).toBeUndefined();
  });

  it('walks a menu tree once, parents first, with full paths', () => {
    interface M {
      name: string;
      path: string;
      children?: M[];
    }
    const tree: M[] = [
      { name: 'a', path: '/a', children: [{ name: 'b', path: 'b', children: [{ name: 'c', path: '/abs' }] }] },
      { name: 'd', path: 'https://x.test' },
    ];
    expect(menuEntries(tree).map((e) => [e.node.name, e.path, e.parents.map((p) => `${p.node.name}@${p.path}`).join('>')])).toEqual([
      ['a', '/a', ''],
      ['b', '/a/b', 'a@/a'],
      ['c', '/abs', 'a@/a>b@/a/b'],
      ['d', 'https://x.test', ''],
    ]);
    expect(findMenu(tree, (m) => m.name === 'b')?.path).toBe('/a/b');
    expect(joinMenuPath('/a/', 'b//c')).toBe('/a/b/c');
  });
});
