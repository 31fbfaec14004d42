import { describe, expect, it } from 'vitest';
import { recordReadOf } from './data-provider';

describe('recordReadOf', () => {
  it('reads the record and, when listed, the only fields the caller may change', () => {
    expect(recordReadOf({ status: 200, data: { id: 1 } })).toEqual({ values: { id: 1 } });
    expect(recordReadOf({ status: 200, data: { id: 1 }, writable: ['quotedPrice'] })).toEqual({
      values: { id: 1 },
      writable: ['quotedPrice'],
    });
    expect(recordReadOf({ status: 200, data: { id: 1 }, writable: [] })).toEqual({ values: { id: 1 }, writable: [] });
    // A detail answering the record itself, and an answer holding none.
    expect(recordReadOf({ id: 2 })).toEqual({ values: { id: 2 } });
    expect(recordReadOf({ status: 200, data: null })).toBeUndefined();
  });
});
