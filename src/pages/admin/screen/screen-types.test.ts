import { describe, expect, it } from 'vitest';
import { screenPreviewPath, templateFor, templateViews, typeName } from './screen-types';

describe('screen types', () => {
  it('names the four types', () => {
    expect([1, 2, 3, 4].map(typeName)).toEqual(['基础预览', '大屏', '表单预览', '容器预览']);
    expect(typeName(9)).toBe('类型 9');
  });

  it('previews a big screen in its viewer and the others at their template address', () => {
    expect(screenPreviewPath({ id: 50, type: 2 })).toBe('/lsPreview?lsId=50');
    expect(screenPreviewPath({ id: 40, type: 4 })).toBe('/dev-tools/vBuild/temp/40');
  });

  it('reads and writes the views of base, form and container templates', () => {
    expect(templateViews(4, '{"baseView":[13,12]}')).toEqual([13, 12]);
    expect(templateViews(1, '{"baseView":["12"]}')).toEqual([12]);
    expect(templateViews(3, '{"formView":30}')).toEqual([30]);
    expect(templateViews(3, null)).toEqual([]);
    expect(templateViews(4, 'not json')).toEqual([]);
    expect(templateViews(4, '{"baseView":[0,-1,"x"]}')).toEqual([]);
    // A container or list whose views are a number or comma text shows them too.
    expect(templateViews(4, '{"baseView":"13,12"}')).toEqual([13, 12]);
    expect(templateViews(1, '{"baseView":12}')).toEqual([12]);
    expect(templateViews(3, '{"formView":"30"}')).toEqual([30]);
    expect(templateViews(4, '{"baseView":"x,,-2"}')).toEqual([]);
    expect(templateFor(4, [13, 12])).toEqual({ baseView: [13, 12] });
    expect(templateFor(1, [13, 12])).toEqual({ baseView: [13] });
    expect(templateFor(3, [30])).toEqual({ formView: 30 });
  });
});
