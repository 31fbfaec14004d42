import { describe, expect, it } from 'vitest';
import { CRUD_IDLE, crudTransition, savedMessage } from './use-crud';
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
    expect(crudTransition(CRUD_IDLE, 'del', 'prepare')).toEqual({ add: 0, edit: 0, del: 1 });
    // A prepare while the call runs does not take it back.
    expect(crudTransition({ ...CRUD_IDLE, edit: 2 }, 'edit', 'prepare').edit).toBe(2);
    expect(crudTransition(CRUD_IDLE, 'add', 'cancel')).toBe(CRUD_IDLE);
  });

  it('says 新增成功 or 编辑成功, and 操作成功 for a view with one submit URL', () => {
    expect(savedMessage({}, 'add')).toBe('新增成功');
    expect(savedMessage({}, 'edit')).toBe('编辑成功');
    expect(savedMessage({ submit: '/api/flow/submit' }, 'edit')).toBe('操作成功');
    expect(savedMessage({ submit: '/api/flow/submit' }, 'add')).toBe('操作成功');
  });
});
