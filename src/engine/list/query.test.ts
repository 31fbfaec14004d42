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
  searchFromAddress,
  searchKeyOf,
  searchToAddress,
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

  it('leaves the search columns to the search form: only other fields become fixed filters', () => {
    const fields = new Set(['stockInId', 'stockNo', 'status']);
    expect(routeFilters(new URLSearchParams('stockInId=12&stockNo=RK01&status=1'), fields, new Set(['stockNo', 'status']))).toEqual({
      stockInId: 12,
    });
  });
});

describe('the search in the address', () => {
  const columns = [
    { name: 'stockNo', searchKind: 'text' },
    { name: 'status', searchKind: 'dict' },
    { name: 'inTime', searchKind: 'date' },
    { name: 'quantity', searchKind: 'number' },
    { name: 'region', searchKind: 'city' },
  ] as const;
  const opts = { createRange: true, hasDefault: true };

  it('carries nothing when no search parameter is there: the list then starts with its default', () => {
    expect(searchFromAddress(new URLSearchParams('stockInId=3&rowId=1'), columns, true)).toBeNull();
    // A page without the createTime range ignores startTime: a field of that name is a column.
    expect(searchFromAddress(new URLSearchParams('startTime=2026-01-01'), columns, false)).toBeNull();
  });

  it("reads a tile's filter: several statuses, a date range, the 创建时间 range", () => {
    const s = searchFromAddress(
      new URLSearchParams('status=0&status=1&inTime=2026-01-01&inTime=2026-12-31&startTime=2026-01-01 00:00:00&endTime=2026-12-31'),
      columns,
      true,
    );
    expect(s?.values.status).toEqual(['0', '1']);
    const [from, to] = (s?.values.inTime ?? []) as dayjs.Dayjs[];
    expect([from?.format('YYYY-MM-DD'), to?.format('YYYY-MM-DD')]).toEqual(['2026-01-01', '2026-12-31']);
    expect(rangeToWire(s?.range)).toEqual(['2026-01-01 00:00:00', '2026-12-31 23:59:59']);
  });

  it('reads a cleared range as none, and skips values it cannot read', () => {
    const s = searchFromAddress(new URLSearchParams('startTime=&endTime=&quantity=x&inTime=2026-13-45'), columns, true);
    expect(s).toEqual({ values: {}, range: null });
  });

  it('writes every search back so that reading it gives the same list call', () => {
    const values = {
      stockNo: ' RK1 ',
      status: ['0', '1'],
      inTime: [dayjs('2026-02-01'), dayjs('2026-02-28')],
      quantity: 3,
      region: ['32', '3201'],
    };
    const range = [dayjs('2026-01-01 00:00:00'), dayjs('2026-03-31 23:59:59')] as [dayjs.Dayjs, dayjs.Dayjs];
    const out = searchToAddress(new URLSearchParams('stockInId=7&stockNo=old'), columns, { values, range }, opts);
    expect([...out]).toEqual([
      ['stockInId', '7'],
      ['stockNo', 'RK1'],
      ['status', '0'],
      ['status', '1'],
      ['inTime', '2026-02-01'],
      ['inTime', '2026-02-28'],
      ['quantity', '3'],
      ['region', '32,3201'],
      ['startTime', '2026-01-01 00:00:00'],
      ['endTime', '2026-03-31 23:59:59'],
    ]);
    const back = searchFromAddress(out, columns, true);
    expect(searchValuesToWire(columns, back?.values ?? {})).toEqual(searchValuesToWire(columns, values));
    expect(rangeToWire(back?.range)).toEqual(rangeToWire(range));
  });

  it('writes a cleared range as empty parameters where the list has a default, and leaves it out elsewhere', () => {
    const cleared = { values: {}, range: null };
    expect(searchToAddress(new URLSearchParams('startTime=2026-01-01'), columns, cleared, opts).toString()).toBe('startTime=&endTime=');
    expect(searchToAddress(new URLSearchParams('startTime=2026-01-01'), columns, cleared, { ...opts, hasDefault: false }).toString()).toBe(
      '',
    );
  });

  it('compares only the part of the address the search owns', () => {
    const key = (q: string) => searchKeyOf(new URLSearchParams(q), columns, true);
    expect(key('stockNo=A&rowId=1')).toBe(key('rowId=2&stockNo=A'));
    expect(key('stockNo=A')).not.toBe(key('stockNo=B'));
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
