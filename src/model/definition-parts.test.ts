import { describe, expect, it } from 'vitest';
import { DIGITS_TEXT, NUMBER_TEXT, PERCENT_TEXT, PIXEL_TEXT, readNumeric } from './coerce.js';
import { DEFAULT_TIME_FORMAT, hasTimeOfDay } from './dates.js';
import { menuComponentName, readMenu } from './menu.js';
import { CONFIGURE_BOOLEAN_KEYS, CONFIGURE_NUMBER_KEYS, configureWords, KNOWN_TEMPLATE } from './normalize/keys.js';
import { readViewIds, screenTemplateViews, viewIdsOf, writeViewIds } from './screen-views.js';

describe('disMenu', () => {
  it('reads JSON text and objects alike, trimming the names', () => {
    expect(readMenu('{"componentName":" stockIn ","name":" 危废入库 ","pid":7}')).toEqual({
      componentName: 'stockIn',
      name: '危废入库',
      pid: 7,
    });
    expect(readMenu({ componentName: 'stockIn', pid: '12' })).toEqual({ componentName: 'stockIn', pid: 12 });
    expect(menuComponentName('{"componentName":"  "}')).toBeUndefined();
    expect(menuComponentName({ componentName: 'a' })).toBe('a');
  });

  it('reads pid as a positive whole number, null for the top level, else absent', () => {
    for (const top of [null, '', 0, '0']) expect(readMenu({ pid: top }).pid).toBeNull();
    for (const junk of [-3, 1.5, 'x', '1e3', true, [], {}, 2_147_483_648]) expect(readMenu({ pid: junk })).toEqual({});
    expect('pid' in readMenu({ componentName: 'a' })).toBe(false);
    expect(readMenu({ pid: 2_147_483_647 }).pid).toBe(2_147_483_647);
  });

  it('reads junk as an empty menu', () => {
    for (const junk of [null, undefined, '', 'not json', '[1]', '"text"', 42, { componentName: 3 }]) expect(readMenu(junk)).toEqual({});
  });
});

describe('screen views', () => {
  it('reads a number, comma text and a list, keeping the form', () => {
    expect(readViewIds(12)).toEqual({ form: 'number', ids: [12] });
    expect(readViewIds(' 12, 13 ,')).toEqual({ form: 'text', ids: [12, 13] });
    expect(readViewIds([12, '13'])).toEqual({ form: 'list', ids: [12, 13] });
    expect(readViewIds(undefined)).toBeUndefined();
    expect(readViewIds('')).toBeUndefined();
    expect(readViewIds({ id: 1 })).toBeUndefined();
  });

  it('keeps junk entries as NaN for a report, and leaves them out of the ids a page shows', () => {
    expect(readViewIds('12,x')?.ids).toEqual([12, Number.NaN]);
    expect(viewIdsOf([0, -1, 'x', null, 1.5, '7'])).toEqual([7]);
    expect(viewIdsOf('abc')).toEqual([]);
  });

  it('writes ids back in the form they came in', () => {
    expect(writeViewIds('number', [5])).toBe(5);
    expect(writeViewIds('text', [5, 6])).toBe('5,6');
    expect(writeViewIds('list', [5, 6])).toEqual([5, 6]);
  });

  it('gives the views of a screen by its type, from text or an object', () => {
    expect(screenTemplateViews(4, '{"baseView":"13,12"}')).toEqual([13, 12]);
    expect(screenTemplateViews(1, { baseView: 12 })).toEqual([12]);
    expect(screenTemplateViews(3, '{"formView":"30"}')).toEqual([30]);
    expect(screenTemplateViews(3, { formView: [30] })).toEqual([30]);
    expect(screenTemplateViews(4, 'not json')).toEqual([]);
    expect(screenTemplateViews(4, null)).toEqual([]);
  });
});

describe('one rule each', () => {
  it('number text', () => {
    for (const ok of ['12', ' -1.5 ', '.5', '3.', '+4']) expect(NUMBER_TEXT.test(ok)).toBe(true);
    for (const bad of ['', '1e3', '12px', '1,000', '-']) expect(NUMBER_TEXT.test(bad)).toBe(false);
    expect(readNumeric('250px')).toEqual({ ok: true, value: 250 });
  });

  it('its named variants: pixels, percentages, bare digits', () => {
    for (const ok of ['250', ' 250px ', '-1.5px', '.5']) expect(PIXEL_TEXT.test(ok)).toBe(true);
    for (const bad of ['250pt', 'px', '60%']) expect(PIXEL_TEXT.test(bad)).toBe(false);
    for (const ok of ['60%', ' 12.5% ', '.5%']) expect(PERCENT_TEXT.test(ok)).toBe(true);
    for (const bad of ['-5%', '60', '60 %']) expect(PERCENT_TEXT.test(bad)).toBe(false);
    for (const ok of ['0', '42']) expect(DIGITS_TEXT.test(ok)).toBe(true);
    for (const bad of ['', ' 1', '+1', '1.0', '-1']) expect(DIGITS_TEXT.test(bad)).toBe(false);
  });

  it('time formats', () => {
    expect(DEFAULT_TIME_FORMAT).toBe('YYYY-MM-DD HH:mm:ss');
    expect(hasTimeOfDay(undefined)).toBe(true);
    expect(hasTimeOfDay('YYYY-MM-DD')).toBe(false);
    expect(hasTimeOfDay('YYYY-MM-DD hh:mm')).toBe(true);
  });

  it('configure key tables come from the wire shapes', () => {
    expect([...CONFIGURE_BOOLEAN_KEYS]).toEqual(
      expect.arrayContaining([
        'search',
        'sortable',
        'overflow',
        'tags',
        'money',
        'required',
        'disabled',
        'editLock',
        'sportData_list_multiple',
      ]),
    );
    expect(CONFIGURE_BOOLEAN_KEYS.has('dict')).toBe(false);
    expect([...CONFIGURE_NUMBER_KEYS].sort()).toEqual(['decimals', 'fileSize', 'max', 'min', 'rows', 'sort']);
    expect(configureWords('align')).toEqual(['left', 'center', 'right']);
    expect(configureWords('dict')).toBeUndefined();
    expect([...KNOWN_TEMPLATE].sort()).toEqual([
      'basicOption',
      'btnDIYOption',
      'dialogOption',
      'formDividerOption',
      'formOption',
      'tableOption',
    ]);
  });
});
