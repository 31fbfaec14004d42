import { describe, expect, it } from 'vitest';
import { dict } from '../contract/dict';
import { roles } from '../contract/roles';
import { type ContractCaller, createContractProvider, pageOf } from './data-provider';

/** A caller that records each call's address and input and answers one page. */
function recorder() {
  const calls: { path: string; method: string; input: unknown }[] = [];
  const api = (async (c: { path: string; method: string }, input: unknown) => {
    calls.push({ path: c.path, method: c.method, input });
    return { content: [{ id: 1 }], totalElements: 1 };
  }) as unknown as ContractCaller;
  return { api, calls };
}

describe('pageOf', () => {
  it('reads a count as it is, and an estimate as one', () => {
    expect(pageOf({ content: [{ id: 1 }], totalElements: 9_999 })).toEqual({ rows: [{ id: 1 }], total: 9_999 });
    expect(pageOf({ content: [{ id: 1 }], totalElements: 1_234_567, totalEstimated: true })).toEqual({
      rows: [{ id: 1 }],
      total: 1_234_567,
      estimated: true,
    });
  });
});

describe('createContractProvider', () => {
  it('reads a page in the resource page base through the list call', async () => {
    const { api, calls } = recorder();
    const page = await createContractProvider(api, 0).getList({ resource: { list: roles.calls.list }, query: { page: 2, size: 10 } });
    expect(page).toEqual({ rows: [{ id: 1 }], total: 1 });
    expect(calls).toEqual([{ path: '/api/roles', method: 'GET', input: { query: { page: 1, size: 10 } } }]);
  });

  it('deletes the ids as the body, or one call per id when the address names one', async () => {
    const { api, calls } = recorder();
    const provider = createContractProvider(api, 0);
    await provider.deleteMany({ resource: { list: roles.calls.list, remove: roles.calls.remove }, ids: [3, 4] });
    await provider.deleteMany({ resource: { list: dict.calls.entries, remove: dict.calls.removeEntry }, ids: [5, 6] });
    expect(calls).toEqual([
      { path: '/api/roles', method: 'DELETE', input: { body: [3, 4] } },
      { path: '/api/dictDetail/:id', method: 'DELETE', input: { params: { id: 5 } } },
      { path: '/api/dictDetail/:id', method: 'DELETE', input: { params: { id: 6 } } },
    ]);
  });
});
