import { describe, expect, it } from 'vitest';
import { redirectTarget } from './redirect-page';

describe('redirectTarget', () => {
  it('strips /redirect and keeps the query and hash', () => {
    expect(redirectTarget('/redirect/logistics/vBuild/temp/25', '?id=7', '')).toBe('/logistics/vBuild/temp/25?id=7');
    expect(redirectTarget('/redirect/dev-tools/temp/page/stockIn/12', '', '#top')).toBe('/dev-tools/temp/page/stockIn/12#top');
  });

  it('goes to / for a bare /redirect and leaves look-alike paths alone', () => {
    expect(redirectTarget('/redirect', '', '')).toBe('/');
    expect(redirectTarget('/redirect/', '?a=1', '')).toBe('/?a=1');
    expect(redirectTarget('/redirection/x', '', '')).toBe('/redirection/x');
  });
});
