import { describe, expect, it } from 'vitest';
import { columnLabel, columnTypeWord } from './column-type';

describe('column type words', () => {
  it('names what a column holds instead of its database type', () => {
    expect(columnLabel({ name: 'name', type: 'character varying' })).toBe('name（文本）');
    expect(columnTypeWord('text')).toBe('文本');
    expect(columnTypeWord('bigint')).toBe('整数');
    expect(columnTypeWord('integer')).toBe('整数');
    expect(columnTypeWord('numeric(12,3)')).toBe('小数');
    expect(columnTypeWord('double precision')).toBe('小数');
    expect(columnTypeWord('date')).toBe('日期');
    expect(columnTypeWord('timestamp without time zone')).toBe('时间');
    expect(columnTypeWord('boolean')).toBe('是/否');
    expect(columnTypeWord('tsvector')).toBe('其他');
  });
});
