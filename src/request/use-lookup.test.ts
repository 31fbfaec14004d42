import { describe, expect, it } from 'vitest';
import { type LookupState, lookupReducer } from './use-lookup';

const idle: LookupState<number[]> = { of: null, data: undefined, loading: false, error: null };

describe('look-up state', () => {
  it('loads, answers, and keeps the answer while the same key loads again', () => {
    const loading = lookupReducer(idle, { type: 'start' });
    expect(loading).toEqual({ ...idle, loading: true });
    const answered = lookupReducer(loading, { type: 'answer', key: 'a', data: [1] });
    expect(answered).toEqual({ of: 'a', data: [1], loading: false, error: null });
    expect(lookupReducer(answered, { type: 'start' })).toEqual({ ...answered, loading: true });
  });

  it('keeps the failure until a load answers; the same key keeps its last answer, another key has none', () => {
    const answered: LookupState<number[]> = { of: 'a', data: [1], loading: true, error: null };
    const failedSame = lookupReducer(answered, { type: 'fail', key: 'a', error: '接口请求失败' });
    expect(failedSame).toEqual({ of: 'a', data: [1], loading: false, error: '接口请求失败' });
    expect(lookupReducer(failedSame, { type: 'start' }).error).toBe('接口请求失败');
    expect(lookupReducer(answered, { type: 'fail', key: 'b', error: '无权访问' })).toEqual({
      of: 'b',
      data: undefined,
      loading: false,
      error: '无权访问',
    });
    expect(lookupReducer(failedSame, { type: 'answer', key: 'a', data: [2] }).error).toBeNull();
  });

  it('holds nothing without a key, and stays the same object when nothing changes', () => {
    const answered: LookupState<number[]> = { of: 'a', data: [1], loading: false, error: null };
    expect(lookupReducer(answered, { type: 'idle' })).toEqual(idle);
    const same = lookupReducer(answered, { type: 'idle' });
    expect(lookupReducer(same, { type: 'idle' })).toBe(same);
    const loading = lookupReducer(idle, { type: 'start' });
    expect(lookupReducer(loading, { type: 'start' })).toBe(loading);
  });
});
