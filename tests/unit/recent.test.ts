import { describe, expect, it } from 'vitest';
import { dropOldest, used } from '../../server/lib/recent.js';

describe('maps in the order their keys were last used', () => {
  it('moves a used key to the end, and drops the least recently used beyond the bound', () => {
    const map = new Map<string, number | null>([
      ['a', 1],
      ['b', null],
      ['c', 3],
    ]);
    expect(used(map, 'a')).toBe(1);
    expect(used(map, 'b')).toBeNull();
    expect(used(map, 'z')).toBeUndefined();
    expect([...map.keys()]).toEqual(['c', 'a', 'b']);
    const dropped: (number | null)[] = [];
    map.set('d', 4);
    dropOldest(map, 2, (v) => dropped.push(v));
    expect([...map.keys()]).toEqual(['b', 'd']);
    expect(dropped).toEqual([3, 1]);
    dropOldest(map, 5);
    expect(map.size).toBe(2);
  });
});
