import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, FILE, urlOf, write } from './define';
import { files } from './files';
import { general } from './general';

describe('urlOf', () => {
  it('appends the query, each value encoded as a URI component', () => {
    expect(urlOf(files.calls.openImage, { query: { source: '2026/01/a b(1).png' } })).toBe(
      '/api/open/image?source=2026%2F01%2Fa%20b(1).png',
    );
  });

  it('fills the path parameters and leaves out absent values', () => {
    expect(urlOf(general.calls.template, { params: { viewId: 12 } })).toBe('/api/general/12/template');
    expect(urlOf(files.calls.download, { query: { source: 'x.pdf', fileName: undefined } })).toBe('/api/file/download?source=x.pdf');
  });

  it('repeats the name of each value of a list, and is the bare path without a query', () => {
    const c = call({
      method: 'GET',
      path: '/api/x/:id',
      summary: 'x',
      access: 'public',
      params: z.object({ id: z.number() }),
      query: z.object({ ids: z.array(z.number()).optional() }),
      answer: FILE,
      errors: [],
    });
    expect(urlOf(c, { params: { id: 1 }, query: { ids: [2, 3] } })).toBe('/api/x/1?ids=2&ids=3');
    expect(urlOf(c, { params: { id: 1 } })).toBe('/api/x/1');
  });
});

describe('call', () => {
  it('reads who may call from its fourth argument: public, session, or the permissions it needs', () => {
    const rest = { answer: FILE, errors: [] } as const;
    expect(call('GET', '/api/a', 'a', 'public', rest).access).toBe('public');
    expect(call('GET', '/api/a', 'a', 'session', rest).access).toBe('session');
    expect(call('GET', '/api/a', 'a', 'dept:list', rest).access).toEqual({ permission: 'dept:list' });
    expect(call('GET', '/api/a', 'a', ['menu:list', 'role:list'], rest).access).toEqual({ permission: ['menu:list', 'role:list'] });
  });

  it('logs a write under its title and its permission', () => {
    const w = write('POST', '/api/a', '新增甲', 'a:add', { answer: FILE, errors: [] });
    expect(w).toMatchObject({ method: 'POST', path: '/api/a', summary: '新增甲', log: '新增甲', access: { permission: 'a:add' } });
  });
});
