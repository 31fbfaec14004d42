import { describe, expect, it } from 'vitest';
import { isOpenableUrl, urlScheme } from './urls.js';

describe('addresses the app may open', () => {
  it('accepts http, https, mailto, tel and addresses without a scheme', () => {
    for (const url of [
      'https://www.mee.gov.cn/',
      'HTTP://example.com',
      'mailto:ops@example.com',
      'tel:+86-571-1234',
      '/dispose/vBuild/temp/30',
      '/qrcode/print?size=30',
      'dispose/vBuild/temp/30',
      '?a=1',
      '/a:b',
    ])
      expect(isOpenableUrl(url), url).toBe(true);
  });

  it('refuses every other scheme, however a browser would still read it', () => {
    for (const url of [
      "javascript:alert('x')",
      "javascript:alert('x')\n",
      'JavaScript:alert(1)',
      '  javascript:alert(1)',
      '\u0001javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'blob:https://example.com/1',
    ])
      expect(isOpenableUrl(url), JSON.stringify(url)).toBe(false);
  });

  it('reads the scheme as a browser does', () => {
    expect(urlScheme(' Java\tScript:x')).toBe('javascript');
    expect(urlScheme('/path')).toBeUndefined();
    expect(urlScheme('1http:x')).toBeUndefined();
  });
});
