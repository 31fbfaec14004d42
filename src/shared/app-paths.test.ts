import { describe, expect, it } from 'vitest';
import { APP_PATHS, bigScreenDesignerPath, bigScreenViewerPath, loginPath, viewPreviewPath } from './app-paths';

describe("the app's own addresses", () => {
  it('come from one table', () => {
    expect(APP_PATHS.home).toBe('/abandonhome');
    expect(loginPath()).toBe('/login');
    expect(loginPath('/a b?x=1')).toBe('/login?redirect=%2Fa%20b%3Fx%3D1');
    expect(bigScreenViewerPath(7)).toBe('/lsPreview?lsId=7');
    expect(bigScreenDesignerPath(7)).toBe('/lsDesign?lsId=7');
    expect(viewPreviewPath(3)).toBe('/dev-tools/preview?viewId=3');
  });
});
