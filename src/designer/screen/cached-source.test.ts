import { describe, expect, it } from 'vitest';
import type { ScreenDataSource } from '../../engine/index.js';
import { cachedSource } from './cached-source';

const signal = new AbortController().signal;

function counting() {
  const asked: string[] = [];
  const source: ScreenDataSource = {
    dataView: async (id) => {
      asked.push(`view:${id}`);
      return { columns: ['n'], list: [{ n: asked.length }] };
    },
    cityInfo: async (id) => {
      asked.push(`city:${id ?? ''}`);
      return [];
    },
  };
  return { source, asked };
}

describe('the designer’s cached data source', () => {
  it('asks once per data view while no refresh period is set', async () => {
    const { source, asked } = counting();
    let now = 0;
    const cached = cachedSource(source, () => now);
    await cached.dataView(3, signal);
    now = 10 * 60_000;
    await cached.dataView(3, signal);
    await cached.cityInfo(undefined, signal);
    expect(asked).toEqual(['view:3', 'city:']);
  });

  it('asks again once an answer is as old as the refresh period (basic.timer)', async () => {
    const { source, asked } = counting();
    let now = 0;
    const cached = cachedSource(source, () => now);
    cached.setMaxAge(5000);
    const first = await cached.dataView(3, signal);
    now = 4999;
    expect(await cached.dataView(3, signal)).toBe(first);
    now = 5000;
    expect(await cached.dataView(3, signal)).toEqual({ columns: ['n'], list: [{ n: 2 }] });
    expect(asked).toEqual(['view:3', 'view:3']);
  });
});
