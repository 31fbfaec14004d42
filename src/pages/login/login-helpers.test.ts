import { describe, expect, it } from 'vitest';
import {
  APPLY_PHONE,
  applyPayload,
  DEFAULT_REMEMBER_ME_DAYS,
  type RegionOption,
  regionLabels,
  rememberMeDays,
  safeRedirect,
} from './login-helpers';

describe('safeRedirect', () => {
  it.each(['/dashboard', '/some/page?x=1&y=%2F'])('keeps the same-origin path %s with its query', (path) => {
    expect(safeRedirect(path)).toBe(path);
  });

  it('refuses anything that could leave the site', () => {
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'dashboard',
      '/\t/evil.example',
      '',
    ]) {
      expect(safeRedirect(bad), bad).toBe('/');
    }
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect(undefined, '/abandonhome')).toBe('/abandonhome');
  });
});

describe('rememberMeDays', () => {
  it('takes the configured number of days, else the default', () => {
    expect(rememberMeDays('30')).toBe(30);
    expect(rememberMeDays('0.5')).toBe(0.5);
    for (const bad of [undefined, '', 'abc', '-3', '0']) expect(rememberMeDays(bad), String(bad)).toBe(DEFAULT_REMEMBER_ME_DAYS);
  });
});

describe('apply-to-join form', () => {
  const tree: RegionOption[] = [
    {
      value: '320000',
      label: '江苏省',
      children: [{ value: '320100', label: '南京市', children: [{ value: '320102', label: '玄武区' }] }],
    },
  ];

  it('accepts 11-digit mobile numbers starting 1 then 3-9 only', () => {
    for (const ok of ['13912345678', '19900000000', '15000000000']) expect(APPLY_PHONE.test(ok), ok).toBe(true);
    for (const bad of ['12912345678', '1391234567', '139123456789', '23912345678', '1391234567a', ' 13912345678']) {
      expect(APPLY_PHONE.test(bad), bad).toBe(false);
    }
  });

  it('names the picked region path', () => {
    expect(regionLabels(tree, ['320000', '320100', '320102'])).toEqual(['江苏省', '南京市', '玄武区']);
    expect(regionLabels(tree, ['320000', '999999'])).toEqual(['江苏省']);
  });

  it('sends codes joined by commas, names by slashes, the type label as comtype and source 2', () => {
    const payload = applyPayload(
      {
        name: ' 南京示例化工有限公司 ',
        type: '1',
        region: ['320000', '320100', '320102'],
        applicant: '李雷 ',
        phone: '13912345678',
        code: ' 8888',
      },
      [
        { value: '1', label: '产废企业' },
        { value: '2', label: '处置企业' },
      ],
      tree,
      'uuid-1',
    );
    expect(payload).toEqual({
      name: '南京示例化工有限公司',
      type: '1',
      comtype: '产废企业',
      region: '320000,320100,320102',
      regionFmt: '江苏省/南京市/玄武区',
      applicant: '李雷',
      phone: '13912345678',
      source: 2,
      code: '8888',
      uuid: 'uuid-1',
    });
  });
});
