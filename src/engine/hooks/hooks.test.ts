import { describe, expect, it } from 'vitest';
import {
  CRUD_IDLE,
  CRUD_TEXTS,
  type CrudAction,
  type CrudEvent,
  crudDialogStatus,
  crudTransition,
  deleteRecords,
  savedMessage,
} from './use-crud';
import { initialListQuery, listQueryReducer } from './use-list-query';

describe('list query', () => {
  const start = { ...initialListQuery(['2026-01-01 00:00:00', '2026-03-31 23:59:59']), page: 3 };

  it('starts on page 1 with 10 rows, no sort of its own and the given range', () => {
    expect(initialListQuery(null)).toEqual({ page: 1, size: 10, sort: null, range: null, values: {} });
  });

  it('goes back to page 1 on a search, keeping size and sort', () => {
    const sorted = { ...start, size: 20, sort: { field: 'inTime', order: 'asc' as const } };
    expect(listQueryReducer(sorted, { type: 'search', values: { stockNo: 'RK' }, range: null })).toEqual({
      ...sorted,
      page: 1,
      values: { stockNo: 'RK' },
      range: null,
    });
  });

  it('pages; a new size or a new sort goes back to page 1', () => {
    expect(listQueryReducer(start, { type: 'table', page: 4, size: 10, sort: null }).page).toBe(4);
    expect(listQueryReducer(start, { type: 'table', page: 4, size: 20, sort: null })).toMatchObject({ page: 1, size: 20 });
    expect(listQueryReducer(start, { type: 'table', page: 4, size: 10, sort: { field: 'quantity', order: 'desc' } })).toMatchObject({
      page: 1,
      sort: { field: 'quantity', order: 'desc' },
    });
  });

  it('keeps the same state when nothing changed, so no list call is made', () => {
    expect(listQueryReducer(start, { type: 'table', page: 3, size: 10, sort: null })).toBe(start);
    expect(listQueryReducer(start, { type: 'deleted', count: 1, total: 50 })).toBe(start);
  });

  it('steps back a page when a delete emptied the last one, never before page 1', () => {
    // 21 rows, page 3 holds the 21st: deleting it leaves two pages.
    expect(listQueryReducer(start, { type: 'deleted', count: 1, total: 21 }).page).toBe(2);
    expect(listQueryReducer(start, { type: 'deleted', count: 21, total: 21 }).page).toBe(1);
  });
});

describe('CRUD action states', () => {
  it('goes normal → prepared → processing, back to normal on success and to prepared on failure', () => {
    let s = crudTransition(CRUD_IDLE, 'add', 'prepare');
    expect(s.add).toBe(1);
    s = crudTransition(s, 'add', 'start');
    expect(s.add).toBe(2);
    expect(crudTransition(s, 'add', 'failure').add).toBe(1);
    expect(crudTransition(s, 'add', 'success').add).toBe(0);
    expect(crudTransition(crudTransition(CRUD_IDLE, 'edit', 'prepare'), 'edit', 'cancel').edit).toBe(0);
    expect(crudTransition(CRUD_IDLE, 'del', 'prepare')).toEqual({ add: 0, edit: 0, del: 1, look: 0 });
    // A prepare while the call runs does not take it back.
    expect(crudTransition({ ...CRUD_IDLE, edit: 2 }, 'edit', 'prepare').edit).toBe(2);
    expect(crudTransition(CRUD_IDLE, 'add', 'cancel')).toBe(CRUD_IDLE);
  });

  it('counts an open look dialog as prepared: it never processes, and closing it is normal again', () => {
    expect(CRUD_IDLE).toEqual({ add: 0, edit: 0, del: 0, look: 0 });
    const looking = crudTransition(CRUD_IDLE, 'look', 'prepare');
    expect(looking).toEqual({ ...CRUD_IDLE, look: 1 });
    expect(crudDialogStatus(looking)).toBe(1);
    expect(crudTransition(looking, 'look', 'start')).toBe(looking);
    expect(crudTransition(looking, 'look', 'cancel')).toEqual(CRUD_IDLE);
    expect(crudDialogStatus(CRUD_IDLE)).toBe(0);
    expect(crudDialogStatus({ ...CRUD_IDLE, edit: 2 })).toBe(2);
    expect(crudDialogStatus({ ...CRUD_IDLE, del: 1 })).toBe(0);
  });

  /** A delete run against fakes: the del states it went through, the loading flag and what followed. */
  async function runDelete(call: () => Promise<unknown>, answer = true) {
    let states = CRUD_IDLE;
    const trail: number[] = [];
    const loading: boolean[] = [];
    const done: number[] = [];
    const ok = await deleteRecords([{ id: 1 }, { id: 2 }, { name: 'no key' }], {
      key: 'id',
      texts: CRUD_TEXTS,
      step: (action: CrudAction, event: CrudEvent) => {
        states = crudTransition(states, action, event);
        trail.push(states.del);
      },
      ask: async ({ content }) => {
        expect(content).toBe('确认删除选中的2条数据？');
        return answer;
      },
      call,
      setDeleting: (on) => loading.push(on),
      done: (count) => done.push(count),
    });
    return { ok, trail, loading, done, states };
  }

  it('after a failed delete only stops the loading: del back to prepared, no notice, no step back, no reload', async () => {
    const failed = await runDelete(() => Promise.reject(new Error('删除失败')));
    expect(failed).toMatchObject({ ok: false, trail: [1, 2, 1], loading: [true, false], done: [] });
    expect(failed.states.del).toBe(1);
    const deleted = await runDelete(() => Promise.resolve());
    expect(deleted).toMatchObject({ ok: true, trail: [1, 2, 0], loading: [true, false], done: [2] });
    const cancelled = await runDelete(() => Promise.resolve(), false);
    expect(cancelled).toMatchObject({ ok: false, trail: [1, 0], loading: [], done: [] });
  });

  it('says 新增成功 or 编辑成功, and 操作成功 for a view with one submit URL', () => {
    expect(savedMessage({}, 'add')).toBe('新增成功');
    expect(savedMessage({}, 'edit')).toBe('编辑成功');
    expect(savedMessage({ submit: '/api/flow/submit' }, 'edit')).toBe('操作成功');
    expect(savedMessage({ submit: '/api/flow/submit' }, 'add')).toBe('操作成功');
  });
});
