import { describe, expect, it, vi } from 'vitest';
import { type GeneratedRoute, preloadPage, routeOf } from './routes';

const Page = () => null;
const route = (load: GeneratedRoute['load'], id = 1): GeneratedRoute => ({
  path: `/p/${id}`,
  kind: 'view',
  id,
  title: `页面 ${id}`,
  hash: 'sha256-0',
  status: 1,
  load,
});

describe('preloadPage', () => {
  it('loads a page chunk once, however often it is asked for', async () => {
    const load = vi.fn(async () => ({ default: Page }));
    const r = route(load);
    const [a, b] = await Promise.all([preloadPage(r), preloadPage(r)]);
    expect(await preloadPage(r)).toBe(Page);
    expect(a).toBe(Page);
    expect(b).toBe(Page);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries a failed chunk again on the next ask', async () => {
    const load = vi
      .fn<GeneratedRoute['load']>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ default: Page });
    const r = route(load);
    await expect(preloadPage(r)).rejects.toThrow('Failed to fetch');
    expect(await preloadPage(r)).toBe(Page);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('asks again for a chunk a failed load named under another address, since a browser may keep the failed import', async () => {
    const url = 'http://127.0.0.1:1/assets/page-Abc123.js';
    const load = vi.fn<GeneratedRoute['load']>().mockRejectedValue(new Error(`Failed to fetch dynamically imported module: ${url}`));
    const r = route(load, 2);
    await expect(preloadPage(r)).rejects.toThrow(url);
    // The second attempt imports the named address with a query (which cannot load here), not route.load again.
    await expect(preloadPage(r)).rejects.toThrow();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('routeOf', () => {
  it('finds a route by kind and id', () => {
    const routes = [route(async () => ({ default: Page }), 12), { ...route(async () => ({ default: Page }), 12), kind: 'screen' as const }];
    expect(routeOf(routes, 'screen', 12)).toBe(routes[1]);
    expect(routeOf(routes, 'view', 12)).toBe(routes[0]);
    expect(routeOf(routes, 'view', 13)).toBeUndefined();
  });
});
