import { describe, expect, it } from 'vitest';
import type { BigScreenModel } from '../../model/index.js';
import { normalizeDefinition } from '../../model/index.js';
import { backgroundOf, cssBackground, cssUrl, fitCanvas, gridOf, itemRect } from './layout.js';

function screen(basic: Record<string, unknown> = {}, layout: unknown[] = []): BigScreenModel {
  const r = normalizeDefinition({
    kind: 'screen',
    file: 't',
    json: { id: 1, type: 2, status: 1, name: 't', disTemplate: { canvasConfigure: { basic }, layout } },
  });
  return r.page as BigScreenModel;
}

describe('the grid', () => {
  it('divides the area below the header into defaultCol columns and 2 × defaultH rows, margins between and around', () => {
    const model = screen();
    const grid = gridOf(model.canvas);
    // 1920 wide, 24 columns, margin 20; 1080 - 80 header, 36 rows.
    expect(grid.cols).toBe(24);
    expect(grid.rows).toBe(36);
    expect(grid.colWidth).toBeCloseTo((1920 - 25 * 20) / 24);
    expect(grid.rowHeight).toBeCloseTo((1000 - 37 * 20) / 36);
    const item = screen({}, [{ i: 'a', x: 6, y: 18, w: 6, h: 18, chart: [] }]).layout[0];
    if (!item) throw new Error('no item');
    const r = itemRect(item, grid);
    expect(r.left).toBeCloseTo(20 + 6 * (grid.colWidth + 20));
    expect(r.width).toBeCloseTo(6 * grid.colWidth + 5 * 20);
    // The default item is a quarter wide and half high: two rows of them fill the area exactly.
    expect(r.top + r.height + 20).toBeCloseTo(1000);
  });

  it('places an absolute container at its own top and left', () => {
    const model = screen({}, [{ i: 'a', x: 6, y: 6, w: 4, h: 4, container: { super: { absolute: true, top: 33, left: 44 } }, chart: [] }]);
    const item = model.layout[0];
    if (!item) throw new Error('no item');
    expect(itemRect(item, gridOf(model.canvas))).toMatchObject({ top: 33, left: 44 });
  });
});

describe('fitting the canvas', () => {
  it('keeps the aspect ratio and centres the canvas (letterboxed)', () => {
    // 1366×768 is a little wider than 16:9: the height decides, thin bars left and right.
    const laptop = fitCanvas({ width: 1366, height: 768 }, { width: 1920, height: 1080 });
    expect(laptop.scale).toBeCloseTo(768 / 1080);
    expect(laptop.top).toBe(0);
    expect(laptop.left).toBeCloseTo((1366 - 1920 * (768 / 1080)) / 2);
    expect(fitCanvas({ width: 3840, height: 1080 }, { width: 1920, height: 1080 })).toEqual({ scale: 1, left: 960, top: 0 });
    const portrait = fitCanvas({ width: 1080, height: 1920 }, { width: 1920, height: 1080 });
    expect(portrait.scale).toBeCloseTo(0.5625);
    expect(portrait.left).toBe(0);
    expect(portrait.top).toBeCloseTo((1920 - 607.5) / 2);
  });
});

describe('backgrounds', () => {
  it('tells an image address from a colour', () => {
    expect(backgroundOf('#061537')).toEqual({ background: '#061537' });
    expect(backgroundOf('rgba(0,0,0,.4)')).toEqual({ background: 'rgba(0,0,0,.4)' });
    expect(backgroundOf('/api/file/preview?source=a.png')).toMatchObject({ backgroundImage: 'url("/api/file/preview?source=a.png")' });
    expect(backgroundOf('bg.webp')).toMatchObject({ backgroundImage: 'url("bg.webp")' });
    expect(backgroundOf('')).toEqual({});
  });

  it('places an address in url("…") with nothing that ends the string, and draws none the app may not', () => {
    expect(cssUrl("/api/file/preview?source=it's (1).png")).toBe('url("/api/file/preview?source=it\\\'s \\(1\\).png")');
    expect(cssUrl('https://cdn.example.com/bg.png')).toBe('url("https://cdn.example.com/bg.png")');
    for (const bad of [
      'a"b',
      'a\\b',
      'a\nb',
      'javascript:alert(1)',
      'http://evil.example/x.png',
      '//evil.example/x.png',
      'data:image/png;base64,AA',
    ])
      expect(cssUrl(bad), JSON.stringify(bad)).toBe('none');
  });

  it('draws no colour or image setting that would load what the app may not', () => {
    expect(backgroundOf('http://evil.example/x.png')).toEqual({});
    expect(backgroundOf('url(https://evil.example/x.png)')).toEqual({});
    expect(backgroundOf('r\\65 d')).toEqual({});
    expect(cssBackground('rgba(0, 0, 0, 0.4)')).toBe('rgba(0, 0, 0, 0.4)');
    expect(cssBackground('image-set("x.png" 1x)')).toBeUndefined();
    // An image address is placed as an address, never as CSS of its own.
    expect(cssBackground('url(//evil.example/x.png?)')).toBe('url("url\\(//evil.example/x.png?\\)")');
    expect(cssBackground('/api/file/preview?source=a.png')).toBe('url("/api/file/preview?source=a.png")');
  });
});
