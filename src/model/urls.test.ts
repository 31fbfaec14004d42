import { describe, expect, it } from 'vitest';
import { backgroundProblem, imageUrlProblem, isOpenableUrl, urlScheme } from './urls.js';

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

describe('image addresses a definition has drawn', () => {
  it('draws paths of the app and https images', () => {
    for (const url of [
      '/api/file/preview?source=2026/11/bg.png',
      '/api/file/preview?source=bg(1).png',
      "images/it's.webp",
      './bg.png',
      '../bg.png',
      'bg.webp',
      'https://cdn.example.com/bg.png',
      'HTTPS://cdn.example.com/bg.png',
    ])
      expect(imageUrlProblem(url), url).toBeUndefined();
  });

  it('refuses other schemes, other hosts without a scheme, and what would end a CSS string', () => {
    for (const url of [
      'http://example.com/bg.png',
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:image/png;base64,AAAA',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'blob:https://example.com/1',
      'file:///etc/passwd',
      '//evil.example/bg.png',
      '  //evil.example/bg.png',
      '/\\evil.example/bg.png',
      'bg.png") , url("https://evil.example/x.png',
      'bg.png\\")',
      'bg\n.png',
      '/\t/evil.example/bg.png',
    ])
      expect(imageUrlProblem(url), JSON.stringify(url)).toBeDefined();
  });

  it('reads a colour-or-image setting as the engine draws it', () => {
    for (const colour of ['#061537', 'rgba(0,0,0,0.4)', 'linear-gradient(90deg, #061537, #0a265c)', 'transparent'])
      expect(backgroundProblem(colour), colour).toBeUndefined();
    expect(backgroundProblem('/api/file/preview?source=a.png')).toBeUndefined();
    for (const bad of [
      'url(https://evil.example/x.png)',
      'red URL(/x.png)',
      '-webkit-image-set(url(x.png) 1x)',
      'image-set("x.png" 1x)',
      'cross-fade(a, b)',
      'r\\65 d',
      'http://evil.example/x.png',
      'data:image/png;base64,AAAA',
    ])
      expect(backgroundProblem(bad), bad).toBeDefined();
  });
});
