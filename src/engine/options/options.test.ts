import { describe, expect, it, vi } from 'vitest';
import type { RemoteOptions } from '../../model';
import { createDictLoader, dictNames } from './dict-loader';
import { createRemoteCache, findOption, labelPath, normalizeOptions, remoteKey, remoteParams } from './remote-options';

const answer = (names: string[]) =>
  Object.fromEntries(names.map((n) => [n, [{ id: 1, value: '1', label: `${n}-1`, type: 'success', dictSort: 1 }]]));

describe('dictionary loader', () => {
  it('asks for every name of one tick in a single call', async () => {
    const fetch = vi.fn(async (names: string[]) => answer(names));
    const loader = createDictLoader(fetch);
    await Promise.all([loader.load('a'), loader.load(['b', 'c']), loader.load('a,b')]);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toEqual(['a', 'b', 'c']);
    expect(loader.entries('b')).toEqual([{ value: '1', label: 'b-1', type: 'success' }]);
  });

  it('never asks again for a loaded or in-flight name, and keeps the same array', async () => {
    const fetch = vi.fn(async (names: string[]) => answer(names));
    const loader = createDictLoader(fetch);
    const first = loader.load('a');
    const again = loader.load('a');
    await Promise.all([first, again]);
    const entries = loader.entries('a');
    await loader.load(['a']);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(loader.entries('a')).toBe(entries);
    await loader.load(['a', 'd']);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.mock.calls[1]?.[0]).toEqual(['d']);
  });

  it('reads a name the answer lacks as empty, and tells subscribers', async () => {
    const loader = createDictLoader(async () => ({}));
    const listener = vi.fn();
    loader.subscribe(listener);
    await loader.load('missing');
    expect(loader.entries('missing')).toEqual([]);
    expect(loader.status('missing')).toBe('ready');
    expect(listener).toHaveBeenCalled();
  });

  it('marks a failed batch and retries it on the next load', async () => {
    let fail = true;
    const fetch = vi.fn(async (names: string[]) => {
      if (fail) throw new Error('down');
      return answer(names);
    });
    const loader = createDictLoader(fetch);
    await loader.load(['a', 'b']);
    expect(loader.status('a')).toBe('failed');
    expect(loader.entries('a')).toBeUndefined();
    fail = false;
    await loader.load(['a', 'b']);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(loader.status('b')).toBe('ready');
  });

  it('splits, trims and dedupes names', () => {
    expect(dictNames(['a, b', undefined, 'a', ' ', 'c'])).toEqual(['a', 'b', 'c']);
  });
});

describe('remote options', () => {
  // The query reads the parameters only: the url and the tree and multiple flags do not change it.
  const remote: Pick<RemoteOptions, 'params'> = {
    params: [
      { key: 'type', source: 'fixed', value: '2' },
      { key: 'companyId', source: 'field', value: 'partyACompany' },
    ],
  };

  it('sends fixed values and the current value of a type-2 source field', () => {
    expect(remoteParams(remote, { partyACompany: 7 })).toEqual({ type: '2', companyId: '7' });
    expect(remoteParams(remote, { partyACompany: ['1', '2'] })).toEqual({ type: '2', companyId: '1,2' });
    expect(remoteParams(remote, { partyACompany: '' })).toEqual({ type: '2' });
  });

  it('keys the cache on url and parameters in key order', () => {
    expect(remoteKey('/u', { b: '2', a: '1' })).toBe(remoteKey('/u', { a: '1', b: '2' }));
    expect(remoteKey('/u', { a: '1' })).not.toBe(remoteKey('/u', { a: '2' }));
    expect(remoteKey('/u', {})).toBe('/u');
  });

  it('reads content lists, plain lists and trees, with name/id as fallbacks', () => {
    expect(normalizeOptions({ content: [{ id: 1, name: '甲' }] })).toEqual([{ value: '1', label: '甲' }]);
    expect(normalizeOptions([{ value: 2, label: '乙' }, null, { label: 'no value' }])).toEqual([{ value: '2', label: '乙' }]);
    const tree = normalizeOptions([{ value: '31', label: '上海市', children: [{ value: '3101', label: '市辖区', children: [] }] }]);
    expect(tree).toEqual([{ value: '31', label: '上海市', children: [{ value: '3101', label: '市辖区' }] }]);
    expect(findOption(tree, 3101)?.label).toBe('市辖区');
    expect(labelPath(tree, ['31', '3101'])).toEqual(['上海市', '市辖区']);
    expect(labelPath(tree, ['31', '9999'])).toBeUndefined();
  });

  it('loads each url and parameters once, whoever asks', async () => {
    const fetch = vi.fn(async () => ({ content: [{ id: 1, name: 'x' }] }));
    const cache = createRemoteCache(fetch);
    await Promise.all([cache.load('/u', { a: '1' }), cache.load('/u', { a: '1' })]);
    await cache.load('/u', { a: '1' });
    expect(fetch).toHaveBeenCalledTimes(1);
    await cache.load('/u', { a: '2' });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(cache.options(remoteKey('/u', { a: '1' }))).toEqual([{ value: '1', label: 'x' }]);
  });
});
