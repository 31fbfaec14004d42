import { describe, expect, it } from 'vitest';
import { engineExtensions } from './engine-extensions';

const slot = (pathname: string, componentName: string) => ({ pathname, componentName, viewId: 1, reload: () => {} });

describe('engine extensions', () => {
  it("adds 手工录入 to the disposal order list on the view's page and where a screen shows it, whatever its ids", () => {
    expect(engineExtensions.listToolbar?.(slot('/dispose/vBuild/temp/30', 'disposalOrder'))).toBeTruthy();
    expect(engineExtensions.listToolbar?.(slot('/other/vBuild/temp/7/', 'disposalOrder'))).toBeTruthy();
    expect(engineExtensions.listToolbar?.(slot('/dev-tools/temp/page/disposalOrder/19', 'disposalOrder'))).toBeTruthy();
  });

  it('adds nothing to another list, nor to a preview outside the low-code pages', () => {
    expect(engineExtensions.listToolbar?.(slot('/dispose/vBuild/temp/30', 'stockIn'))).toBeNull();
    expect(engineExtensions.listToolbar?.(slot('/dev-tools/preview', 'disposalOrder'))).toBeNull();
  });
});
