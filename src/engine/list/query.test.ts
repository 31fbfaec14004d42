import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  buildExportQuery,
  buildListQuery,
  DEFAULT_PAGE_SIZE,
  defaultCreateRange,
  type ListQueryState,
  pageAfterDelete,
  rangeToWire,
  routeFilters,
  routeRecords,
  rowNumber,
  searchValuesToWire,
  searchValueToWire,
} from './query';

const byDate = { field: 'inTime', order: 'desc' } as const;

function state(over: Partial<ListQueryState> = {}): ListQueryState {
  return { page: 1, size: DEFAULT_PAGE_SIZE, sort: null, range: null, values: {}, ...over };
}

describe('list query', () => {
  it('holds page 1-based as the pager shows it, the size and the default sort', () => {
    expect(buildListQuery(state(), byDate)).toEqual({ page: 1, size: 10, sort: 'inTime,desc' });
    expect(buildListQuery(state({ page: 3, size: 20 }), byDate)).toMatchObject({ page: 3, size: 20 });
  });

  it('sends no sort when neither the user nor the list has one', () => {
    expect(buildListQuery(state(), null)).toEqual({ page: 1, size: 10 });
  });

  it("sends the user's sort instead of the default", () => {
    expect(buildListQuery(state({ sort: { field: 'quantity', order: 'asc' } }), byDate).sort).toBe('quantity,asc');
  });

  it('sends the createTime range as startTime and endTime, 90 days back by default', () => {
    const now = dayjs('2026-03-31T10:20:30');
    const range = defaultCreateRange(now);
    expect(rangeToWire(range)).toEqual(['2025-12-31 00:00:00', '2026-03-31 23:59:59']);
    const q = buildListQuery(state({ range: rangeToWire(range) }), byDate);
    expect(q.startTime).toBe('2025-12-31 00:00:00');
    expect(q.endTime).toBe('2026-03-31 23:59:59');
    expect(buildListQuery(state({ range: rangeToWire([range[0], null]) }), byDate)).not.toHaveProperty('startTime');
  });

  it('sends search values and leaves empty ones out', () => {
    const q = buildListQuery(
      state({ values: { stockNo: 'RK1', wasteName: '', status: undefined, tags: [] }, fixed: { stockInId: 5 } }),
      byDate,
    );
    expect(q).toEqual({ page: 1, size: 10, sort: 'inTime,desc', stockNo: 'RK1', stockInId: 5 });
  });

  it('turns search inputs into wire values by kind', () => {
    expect(searchValueToWire('text', '  RK2026 ')).toBe('RK2026');
    expect(searchValueToWire('text', '   ')).toBeUndefined();
    expect(searchValueToWire('date', [dayjs('2026-01-02'), dayjs('2026-01-05')])).toEqual(['2026-01-02', '2026-01-05']);
    expect(searchValueToWire('date', [dayjs('2026-01-02'), dayjs('2026-01-02')])).toBe('2026-01-02');
    expect(searchValueToWire('city', ['320000', '320500'])).toBe('320000,320500');
    expect(searchValueToWire('number', '12.5')).toBe(12.5);
    expect(searchValueToWire('number', 'abc')).toBeUndefined();
    expect(searchValueToWire('dict', '1')).toBe('1');
    expect(
      searchValuesToWire(
        [
          { name: 'a', searchKind: 'text' },
          { name: 'b', searchKind: 'dict' },
          { name: 'c', searchKind: 'city' },
        ],
        { a: ' x ', b: null, c: [], d: 'not a column' },
      ),
    ).toEqual({ a: 'x' });
  });

  it('exports every matching row with the visible columns', () => {
    const q = buildExportQuery(state({ page: 4, values: { status: '1' } }), byDate, [
      { name: 'stockNo', label: '入库单号' },
      { name: 'status', label: '状态' },
    ]);
    expect(q).toEqual({ sort: 'inTime,desc', status: '1', fields: ['stockNo', 'status'], headers: ['入库单号', '状态'] });
  });

  it('reads route query values that name fields as filters, numbers as numbers', () => {
    const fields = new Set(['stockInId', 'stockNo']);
    expect(routeFilters(new URLSearchParams('stockInId=12&stockNo=RK01&rowId=3&stockNo2=x'), fields)).toEqual({
      stockInId: 12,
      stockNo: 'RK01',
    });
  });

  it("reads a tile link's auditStatus as the order statuses it stands for, on pages with an orderStatus", () => {
    const orders = new Set(['orderNo', 'orderStatus']);
    expect(routeFilters(new URLSearchParams('auditStatus=1'), orders)).toEqual({ orderStatus: ['0', '1', '2'] });
    expect(routeFilters(new URLSearchParams('auditStatus=0&orderNo=CZ1'), orders)).toEqual({ orderStatus: ['0'], orderNo: 'CZ1' });
    // An explicit orderStatus wins over the alias; an unknown value or a page without the field filters nothing.
    expect(routeFilters(new URLSearchParams('orderStatus=2&auditStatus=1'), orders)).toEqual({ orderStatus: 2 });
    expect(routeFilters(new URLSearchParams('auditStatus=9'), orders)).toEqual({});
    expect(routeFilters(new URLSearchParams('auditStatus=1'), new Set(['stockNo']))).toEqual({});
  });
});

describe('paging', () => {
  it('steps back one page when the last rows of a page are deleted', () => {
    expect(pageAfterDelete({ page: 3, size: 10, total: 21, deleted: 1 })).toBe(2);
    expect(pageAfterDelete({ page: 3, size: 10, total: 25, deleted: 5 })).toBe(2);
    expect(pageAfterDelete({ page: 3, size: 10, total: 25, deleted: 1 })).toBe(3);
    expect(pageAfterDelete({ page: 1, size: 10, total: 1, deleted: 1 })).toBe(1);
    expect(pageAfterDelete({ page: 2, size: 10, total: 20, deleted: 10 })).toBe(1);
  });

  it('numbers rows across pages', () => {
    expect(rowNumber(1, 10, 0)).toBe(1);
    expect(rowNumber(3, 20, 4)).toBe(45);
  });
});

describe('routeRecords', () => {
  it('reads the records an address names by key, and nothing else', () => {
    expect(routeRecords(new URLSearchParams('id=16'))).toBe('16');
    expect(routeRecords(new URLSearchParams('id=16,17&rowId=3'))).toBe('16,17');
    expect(routeRecords(new URLSearchParams('rowId=16'))).toBeUndefined();
    expect(routeRecords(new URLSearchParams('id=HT2026-0106'))).toBeUndefined();
    expect(routeRecords(new URLSearchParams('id='))).toBeUndefined();
  });
});
