import { describe, expect, it } from 'vitest';
import { initialVisible, refreshVisible } from './columns';

const col = (name: string, visible = true) => ({ name, visible });

describe('column settings', () => {
  it('start with the columns the definition shows, or all of them when it shows none', () => {
    expect([...initialVisible([col('a'), col('b', false)])]).toEqual(['a']);
    expect([...initialVisible([col('a', false), col('b', false)])]).toEqual(['a', 'b']);
  });

  it("refresh with the table's columns: the user's choice stays, a new column follows the definition, a removed one goes", () => {
    const before = [col('a'), col('b'), col('c')];
    const names = new Set(before.map((c) => c.name));
    const chosen = new Set(['a', 'c']); // the user hid b
    const after = [col('a'), col('b'), col('d'), col('e', false)];
    expect([...refreshVisible(after, chosen, names)]).toEqual(['a', 'd']);
    // Nothing left shown: the definition's columns again.
    expect([...refreshVisible([col('b'), col('x', false)], new Set(['a']), names)]).toEqual(['b']);
  });
});
