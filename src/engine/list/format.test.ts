import { describe, expect, it } from 'vitest';
import { cellText, dictEntriesOf, dictText, formatDate, formatMoney, remoteText, tagColor, UNRESOLVED_LABEL, withUnit } from './format';

describe('cell formatting', () => {
  it('formats money with thousands separators and 2 decimals', () => {
    expect(formatMoney(1234567.5)).toBe('1,234,567.50');
    expect(formatMoney('186000')).toBe('186,000.00');
    expect(formatMoney(0.005)).toBe('0.01');
    expect(formatMoney(-1234.567)).toBe('-1,234.57');
    expect(formatMoney(999)).toBe('999.00');
    expect(formatMoney(null)).toBe('');
    expect(formatMoney('面议')).toBe('面议');
    // Half away from zero on the decimal value, as everywhere in the app (binary 1.005 is 1.00499…).
    expect(formatMoney(1.005)).toBe('1.01');
    expect(formatMoney(-0.001)).toBe('0.00');
  });

  it('shows the unit after the value, never on an empty cell', () => {
    expect(withUnit('12.500', '吨')).toBe('12.500 吨');
    expect(withUnit('', '吨')).toBe('');
    expect(cellText({ dataType: 'decimal', money: false, decimals: 3, unit: '吨' }, 12.5)).toBe('12.500 吨');
    expect(cellText({ dataType: 'decimal', money: true, unit: '元' }, 186000)).toBe('186,000.00 元');
    expect(cellText({ dataType: 'varchar', money: false }, null)).toBe('');
    expect(cellText({ dataType: 'long', money: false, unit: '辆' }, 3)).toBe('3 辆');
  });

  it('formats dates by the column format', () => {
    expect(formatDate('2026-01-02 08:09:10', 'YYYY-MM-DD')).toBe('2026-01-02');
    expect(formatDate('', 'YYYY-MM-DD')).toBe('');
    expect(formatDate('soon', 'YYYY-MM-DD')).toBe('soon');
  });

  it('shows dictionary labels, comma lists included', () => {
    const entries = [
      { value: '0', label: '待入库', type: 'warning' },
      { value: '1', label: '已入库', type: 'success' },
    ];
    expect(dictText('1', entries)).toBe('已入库');
    expect(dictText('0,1', entries)).toBe('待入库,已入库');
    expect(dictText('9', entries)).toBe('9');
    expect(dictEntriesOf(1, entries)[0]?.type).toBe('success');
  });

  it('colours tags by the entry type', () => {
    expect(tagColor('success')).toBe('success');
    expect(tagColor('info')).toBe('default');
    expect(tagColor('warning')).toBe('warning');
    expect(tagColor('danger')).toBe('error');
    expect(tagColor('')).toBe('processing');
  });
});

describe('remote cell text', () => {
  const options = [
    { value: '1', label: '一号仓库' },
    { value: '9', label: '华东', children: [{ value: '5', label: '五号仓库' }] },
  ];

  it('shows the labels of the options, found anywhere in a tree, each once', () => {
    expect(remoteText(1, undefined, options, 'ready')).toEqual({ text: '一号仓库', unresolved: false });
    expect(remoteText('1,5', undefined, options, 'ready')).toEqual({ text: '一号仓库,五号仓库', unresolved: false });
    expect(remoteText(null, undefined, options, 'ready')).toEqual({ text: '', unresolved: false });
  });

  it('prefers the label the row carries', () => {
    expect(remoteText(13, '张经理', [], 'ready')).toEqual({ text: '张经理', unresolved: false });
  });

  it('never shows a bare id: blank while the options load, a placeholder when no label is found', () => {
    expect(remoteText(13, undefined, undefined, 'loading')).toEqual({ text: '', unresolved: false });
    expect(remoteText(13, undefined, options, 'ready')).toEqual({ text: UNRESOLVED_LABEL, unresolved: true });
    expect(remoteText('13,14', undefined, options, 'ready')).toEqual({ text: UNRESOLVED_LABEL, unresolved: true });
    expect(remoteText('1,13', undefined, options, 'ready')).toEqual({ text: `一号仓库,${UNRESOLVED_LABEL}`, unresolved: true });
    expect(remoteText(13, undefined, undefined, 'failed')).toEqual({ text: UNRESOLVED_LABEL, unresolved: true });
  });
});
