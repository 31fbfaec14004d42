import { describe, expect, it } from 'vitest';
import { type CacheFilter, ListCache, type WriteMatches } from '../../server/lowcode/list-cache.js';

const all: CacheFilter<string> = { key: 'all', filter: 'all' };
const red: CacheFilter<string> = { key: 'red', filter: 'red' };
const blue: CacheFilter<string> = { key: 'blue', filter: 'blue' };
const green: CacheFilter<string> = { key: 'green', filter: 'green' };

/** A computation that answers when told to, counting how often it ran. */
function gate<T>() {
  let open: (v: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    open = r;
  });
  return { promise, open };
}

async function counted<T>(cache: ListCache, key: string, filter: CacheFilter<string>, count: boolean, value: T) {
  let runs = 0;
  const got = await cache.through(1, key, { filter, count }, async () => {
    runs++;
    return value;
  });
  return { got, runs };
}

const matches = (m: Record<string, [number, number]>): WriteMatches =>
  new Map(Object.entries(m).map(([k, [before, after]]) => [k, { before, after }]));

describe('ListCache', () => {
  it('tells whether a key was asked for before, per view, and nothing when off', () => {
    const cache = new ListCache(true);
    expect(cache.sighted(1, 'k')).toBe(false);
    expect(cache.sighted(1, 'k')).toBe(true);
    expect(cache.sighted(2, 'k')).toBe(false);
    const off = new ListCache(false);
    off.sighted(1, 'k');
    expect(off.sighted(1, 'k')).toBe(false);
  });

  it('moves counts on by what a write matched, revises or drops the blocks it touched and keeps the rest', async () => {
    const cache = new ListCache(true);
    await counted(cache, 'c-all', all, true, 10);
    await counted(cache, 'c-red', red, true, 4);
    await counted(cache, 'b-red', red, false, ['r1']);
    await counted(cache, 'b-blue', blue, false, ['b1']);
    await counted(cache, 'b-all', all, false, ['a1']);
    await counted(cache, 'c-green', green, true, 2);
    // Served again, and so counted as worth judging; `green` was not. A filter a write does not report on is dropped.
    for (const [key, filter] of [
      ['c-all', all],
      ['c-red', red],
      ['b-blue', blue],
    ] as const)
      expect((await counted(cache, key, filter, true, -1)).runs).toBe(0);
    let judged: string[] = [];
    const id = await cache.write(1, async (filters) => {
      judged = filters.map((f) => `${f.key}:${f.hits}`).sort();
      // An added row that is red: `all` and `red` matched after, `blue` did not; the block of `all` takes
      // the row in, the block of `red` cannot tell.
      return {
        value: 7,
        matches: matches({ all: [0, 1], red: [0, 1], blue: [0, 0] }),
        revise: (key, values) => new Map(key === 'all' ? [...values].map(([k, v]) => [k, ['a0', ...(v as string[])]]) : []),
      };
    });
    expect(id).toBe(7);
    expect(judged).toEqual(['all:1', 'blue:1', 'green:0', 'red:1']);
    expect((await counted(cache, 'c-green', green, true, 3)).runs).toBe(1);
    expect(await counted(cache, 'c-all', all, true, -1)).toEqual({ got: 11, runs: 0 });
    expect(await counted(cache, 'c-red', red, true, -1)).toEqual({ got: 5, runs: 0 });
    expect(await counted(cache, 'b-blue', blue, false, ['x'])).toEqual({ got: ['b1'], runs: 0 });
    expect(await counted(cache, 'b-all', all, false, ['x'])).toEqual({ got: ['a0', 'a1'], runs: 0 });
    expect(await counted(cache, 'b-red', red, false, ['r2'])).toEqual({ got: ['r2'], runs: 1 });
    // An update moving a row from red to blue.
    await cache.write(1, async () => ({ value: undefined, matches: matches({ all: [1, 1], red: [1, 0], blue: [0, 1] }) }));
    expect((await counted(cache, 'c-red', red, true, -1)).got).toBe(4);
    expect((await counted(cache, 'c-all', all, true, -1)).got).toBe(11);
    expect(await counted(cache, 'b-blue', blue, false, ['b2'])).toEqual({ got: ['b2'], runs: 1 });
  });

  it('drops a count that writes moved to a value it must be counted again at, and moves the others', async () => {
    const cache = new ListCache(true);
    const recount = (held: number) => held < 100;
    const ask = (key: string, filter: CacheFilter<string>, value: number) =>
      cache.through(1, key, { filter, count: true, recount }, async () => value);
    await ask('c-red', red, 101);
    await ask('c-blue', blue, 500);
    for (const [key, filter] of [
      ['c-red', red],
      ['c-blue', blue],
    ] as const)
      await ask(key, filter, -1);
    await cache.write(1, async () => ({ value: 0, matches: matches({ red: [2, 0], blue: [2, 0] }) }));
    expect(await ask('c-red', red, 42)).toBe(42);
    expect(await ask('c-blue', blue, -1)).toBe(498);
  });

  it('takes turns: a write waits for the misses under way, a miss waits for the write under way, and both are kept', async () => {
    const cache = new ListCache(true);
    const order: string[] = [];
    // A miss under way: the write starts only once it is answered, so the answer is kept and moved on.
    const across = gate<number>();
    const pending = cache.through(1, 'c-all', { filter: all, count: true }, async () => {
      order.push('miss');
      return across.promise;
    });
    const first = cache.write(1, async () => {
      order.push('write');
      return { value: 0, matches: matches({ all: [0, 1] }) };
    });
    await Promise.resolve();
    expect(order).toEqual(['miss']);
    across.open(10);
    expect(await pending).toBe(10);
    await first;
    expect(order).toEqual(['miss', 'write']);
    expect(await counted(cache, 'c-all', all, true, -1)).toEqual({ got: 11, runs: 0 });

    // A write under way: a miss begun meanwhile runs after it, so it sees the write and is kept.
    const writing = gate<void>();
    const write = cache.write(1, async () => {
      await writing.promise;
      order.push('write 2');
      return { value: 0, matches: matches({ all: [0, 1] }) };
    });
    const inside = cache.through(1, 'c-red', { filter: red, count: true }, async () => {
      order.push('miss 2');
      return 3;
    });
    // Hits never wait for the write.
    expect(await counted(cache, 'c-all', all, true, -1)).toEqual({ got: 11, runs: 0 });
    writing.open();
    await write;
    expect(await inside).toBe(3);
    expect(order.slice(2)).toEqual(['write 2', 'miss 2']);
    expect((await counted(cache, 'c-red', red, true, -1)).runs).toBe(0);
    expect(await counted(cache, 'c-all', all, true, -1)).toEqual({ got: 12, runs: 0 });
  });

  it('without turns, nothing waits, and a miss a write overlapped is kept only when the write did not touch its filter', async () => {
    const cache = new ListCache(true, undefined, undefined, false);
    await counted(cache, 'c-all', all, true, 10);
    const order: string[] = [];
    // Two misses under way (red and blue) while a write that adds a red row runs and ends.
    const redMiss = gate<number>();
    const blueMiss = gate<number>();
    const red1 = cache.through(1, 'c-red', { filter: red, count: true }, () => redMiss.promise);
    const blue1 = cache.through(1, 'c-blue', { filter: blue, count: true }, () => blueMiss.promise);
    const writing = gate<void>();
    const write = cache.write(1, async () => {
      order.push('write');
      await writing.promise;
      return { value: 0, matches: matches({ all: [0, 1] }), touches: (f) => f.key === 'red' || f.key === 'all' };
    });
    await Promise.resolve();
    // The write did not wait for the misses under way.
    expect(order).toEqual(['write']);
    // A miss that ends while the write is under way is served at once and judged when the write ends.
    blueMiss.open(2);
    expect(await blue1).toBe(2);
    expect(cache.has(1, 'c-blue')).toBe(false);
    writing.open();
    await write;
    redMiss.open(4);
    expect(await red1).toBe(4);
    // The red miss may or may not have seen the red row: not kept. The blue one is, as the write touched
    // no blue row. The count of all moved on.
    expect((await counted(cache, 'c-red', red, true, 5)).runs).toBe(1);
    expect((await counted(cache, 'c-blue', blue, true, -1)).runs).toBe(0);
    expect(await counted(cache, 'c-all', all, true, -1)).toEqual({ got: 11, runs: 0 });

    // A blue miss across a write that touched only red rows is kept: it answers the same either way.
    const across = gate<number>();
    const blue2 = cache.through(1, 'c-blue-2', { filter: blue, count: true }, () => across.promise);
    await cache.write(1, async () => ({ value: 0, matches: matches({}), touches: (f) => f.key === 'red' }));
    across.open(2);
    expect(await blue2).toBe(2);
    expect((await counted(cache, 'c-blue-2', blue, true, -1)).runs).toBe(0);
    // A miss that ended under a write is not kept when a write begun after it, before the first ended,
    // touches its filter: the answer holds neither.
    const first = gate<void>();
    const late = gate<number>();
    const blue3 = cache.through(1, 'c-blue-3', { filter: blue, count: true }, () => late.promise);
    const quiet = cache.write(1, async () => {
      await first.promise;
      return { value: 0, matches: matches({}), touches: () => false };
    });
    late.open(2);
    expect(await blue3).toBe(2);
    await cache.write(1, async () => ({ value: 0, matches: matches({ blue: [0, 1] }), touches: (f) => f.key === 'blue' }));
    first.open();
    await quiet;
    await Promise.resolve();
    expect((await counted(cache, 'c-blue-3', blue, true, 3)).runs).toBe(1);
    // A write that cannot tell (no touches) keeps no miss it overlapped.
    const unknown = gate<number>();
    const green1 = cache.through(1, 'c-green', { filter: green, count: true }, () => unknown.promise);
    await cache.write(1, async () => ({ value: 0, matches: matches({}) }));
    unknown.open(1);
    expect(await green1).toBe(1);
    expect((await counted(cache, 'c-green', green, true, 1)).runs).toBe(1);
  });

  it("moves on by another instance's write, and keeps no miss across one told before its barrier settled", async () => {
    const barrier = gate<void>();
    let barriers = 0;
    const cache = new ListCache(true, undefined, undefined, false, () => {
      barriers++;
      return barrier.promise;
    });
    await counted(cache, 'c-all', all, true, 10);
    // Kept once the barrier settled.
    barrier.open();
    await barrier.promise;
    await Promise.resolve();
    expect(await counted(cache, 'c-all', all, true, -1)).toEqual({ got: 10, runs: 0 });
    cache.remoteWrite(1, () => ({ matches: matches({ all: [0, 1] }) }));
    expect(await counted(cache, 'c-all', all, true, -1)).toEqual({ got: 11, runs: 0 });
    // A miss whose statement may hold a write of another instance told only after it: not kept.
    const held = gate<void>();
    const late = new ListCache(true, undefined, undefined, false, () => held.promise);
    const red1 = late.through(1, 'c-red', { filter: red, count: true }, async () => 4);
    expect(await red1).toBe(4);
    late.remoteWrite(1, () => ({ matches: matches({}) }));
    held.open();
    await held.promise;
    await Promise.resolve();
    expect((await counted(late, 'c-red', red, true, 5)).runs).toBe(1);
    expect(barriers).toBeGreaterThan(0);
    // One across a write of another instance that touched only blue rows is kept: it answers the same either way.
    const across = gate<void>();
    const quiet = new ListCache(true, undefined, undefined, false, () => across.promise);
    expect(await quiet.through(1, 'c-red', { filter: red, count: true }, async () => 4)).toBe(4);
    quiet.remoteWrite(1, () => ({ matches: matches({ blue: [0, 1] }), touches: (f) => f.key === 'blue' }));
    across.open();
    await across.promise;
    await Promise.resolve();
    expect((await counted(quiet, 'c-red', red, true, 5)).runs).toBe(0);
  });

  it('drops only the filters rows changed outside the server may touch, and keeps no miss of theirs across the change', async () => {
    const cache = new ListCache(true);
    await counted(cache, 'c-red', red, true, 4);
    await counted(cache, 'b-red', red, false, ['r1']);
    await counted(cache, 'c-blue', blue, true, 2);
    // A miss of red under way (turns: misses and writes of the view take turns, the change comes across it).
    const across = gate<number>();
    const pending = cache.through(1, 'c-red2', { filter: red, count: true }, () => across.promise);
    await Promise.resolve();
    cache.outside(1, (f) => f.key === 'red');
    across.open(5);
    expect(await pending).toBe(5);
    expect(cache.stats.outside).toBe(2);
    expect((await counted(cache, 'c-red', red, true, 5)).runs).toBe(1);
    expect((await counted(cache, 'b-red', red, false, ['r2'])).runs).toBe(1);
    expect((await counted(cache, 'c-red2', red, true, 6)).runs).toBe(1);
    expect(await counted(cache, 'c-blue', blue, true, -1)).toEqual({ got: 2, runs: 0 });
    // Without turns: a miss whose filter the change touched is not kept, one whose filter it did not is.
    const barrier = gate<void>();
    const pool = new ListCache(true, undefined, undefined, false, () => barrier.promise);
    expect(await pool.through(1, 'c-red', { filter: red, count: true }, async () => 4)).toBe(4);
    expect(await pool.through(1, 'c-blue', { filter: blue, count: true }, async () => 2)).toBe(2);
    pool.outside(1, (f) => f.key === 'red');
    barrier.open();
    await barrier.promise;
    await Promise.resolve();
    expect((await counted(pool, 'c-red', red, true, 5)).runs).toBe(1);
    expect((await counted(pool, 'c-blue', blue, true, 3)).runs).toBe(0);
  });

  it('does not keep an answer computed while the view was bumped', async () => {
    const cache = new ListCache(true);
    const across = gate<number>();
    const pending = cache.through(1, 'c-all', { filter: all, count: true }, () => across.promise);
    await Promise.resolve();
    cache.bump(1);
    across.open(10);
    expect(await pending).toBe(10);
    expect((await counted(cache, 'c-all', all, true, 11)).runs).toBe(1);
  });

  it('drops what it cannot judge: filters a write did not report on, writes that fail, bumped views', async () => {
    const cache = new ListCache(true);
    await counted(cache, 'c-all', all, true, 10);
    await counted(cache, 'c-red', red, true, 4);
    await cache.write(1, async () => ({ value: 0, matches: matches({ all: [0, 0] }) }));
    expect((await counted(cache, 'c-red', red, true, 4)).runs).toBe(1);
    expect((await counted(cache, 'c-all', all, true, 10)).runs).toBe(0);

    await expect(
      cache.write(1, async () => {
        throw new Error('constraint');
      }),
    ).rejects.toThrow('constraint');
    expect((await counted(cache, 'c-all', all, true, 10)).runs).toBe(1);

    await cache.through(2, 'c-all', { filter: all, count: true }, async () => 5);
    const version = cache.version(1);
    cache.bump(1);
    expect(cache.version(1)).not.toBe(version);
    expect((await counted(cache, 'c-all', all, true, 10)).runs).toBe(1);
    expect(await cache.through(2, 'c-all', { filter: all, count: true }, async () => -1)).toBe(5);
    // Record writes leave the version (and so the parsed definition) alone.
    const v = cache.version(1);
    await cache.write(1, async () => ({ value: 0, matches: matches({ all: [0, 1] }) }));
    expect(cache.version(1)).toBe(v);
  });

  it('hands a write its filters in groups, judges a group its rows are outside of whole, and drops what it did not judge', async () => {
    // Filters named `<scope>:<rest>` group by scope; `loose:*` are in none.
    const cache = new ListCache(true, undefined, undefined, false, undefined, undefined, (f) => {
      const scope = (f as string).split(':')[0];
      return scope === 'loose' ? undefined : scope;
    });
    const f = (name: string): CacheFilter<string> => ({ key: name, filter: name });
    const names = ['a:red', 'a:blue', 'b:red', 'b:blue', 'c:all', 'loose:x'];
    for (const name of names) await counted(cache, `c-${name}`, f(name), true, 10);
    let handed: { loose: string[]; groups: string[]; inA: string[] } = { loose: [], groups: [], inA: [] };
    // A row added to scope a, red: group a is judged filter by filter; b and c are not in its scope.
    await cache.write(1, async (filters, groups) => {
      handed = {
        loose: filters.map((x) => x.key),
        groups: groups.list.map(([g]) => g).sort(),
        inA: groups
          .filters('a')
          .map((x) => x.key)
          .sort(),
      };
      return { value: 0, matches: matches({ 'a:red': [0, 1], 'a:blue': [0, 0], 'loose:x': [0, 1] }), touchedGroups: new Set(['a']) };
    });
    expect(handed).toEqual({ loose: ['loose:x'], groups: ['a', 'b', 'c'], inA: ['a:blue', 'a:red'] });
    const now = async (name: string) => (await counted(cache, `c-${name}`, f(name), true, -1)).got;
    expect(await now('a:red')).toBe(11);
    expect(await now('a:blue')).toBe(10);
    expect(await now('b:red')).toBe(10);
    expect(await now('c:all')).toBe(10);
    expect(await now('loose:x')).toBe(11);

    // A touched group's filter the matches leave out is dropped, as a loose one is; an untouched group stays.
    await cache.write(1, async () => ({ value: 0, matches: matches({ 'b:red': [1, 1] }), touchedGroups: new Set(['b']) }));
    expect(await now('b:red')).toBe(10);
    expect(await now('b:blue')).toBe(-1);
    expect(await now('loose:x')).toBe(-1);
    expect(await now('a:red')).toBe(11);

    // Without touchedGroups, the filters in groups are judged by the matches alone.
    await cache.write(1, async () => ({ value: 0, matches: matches({ 'a:red': [1, 0] }) }));
    expect(await now('a:red')).toBe(10);
    expect(await now('c:all')).toBe(-1);

    // A miss of a new group across a write is kept once the write has ended without touching it.
    const writing = gate<void>();
    const write = cache.write(1, async () => {
      await writing.promise;
      return { value: 0, matches: matches({}), touchedGroups: new Set<string>(), touches: (x) => x.key !== 'd:new' };
    });
    await counted(cache, 'c-d:new', f('d:new'), true, 5);
    writing.open();
    await write;
    await expect.poll(() => cache.settling).toBe(0);
    expect(await now('a:red')).toBe(10);
    expect((await counted(cache, 'c-d:new', f('d:new'), true, 6)).got).toBe(5);
  });
});
