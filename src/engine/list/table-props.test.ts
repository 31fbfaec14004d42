import { describe, expect, it } from 'vitest';
import { estimatedTotalText, listTableProps, pickableTableProps, type TableList, totalText } from './table-props';

interface R {
  id: number;
}

const list: TableList<R> = {
  query: { page: 1, size: 10, sort: null, range: null, values: {} },
  total: 2,
  loading: false,
  change: () => {},
  rows: [{ id: 1 }, { id: 2 }],
  selected: { keys: [] },
  select: () => {},
};

function key(k: string, onRow = true) {
  let prevented = false;
  const target = {};
  return {
    event: { key: k, target, currentTarget: onRow ? target : {}, preventDefault: () => (prevented = true) },
    prevented: () => prevented,
  };
}

describe('a list whose rows are picked', () => {
  it('picks a row by click, or by Enter or Space on the focused row itself; the current row shows selected', () => {
    const picked: number[] = [];
    const props = pickableTableProps(list, { id: 2 }, (r) => picked.push(r.id));
    const row = props.onRow({ id: 1 });
    row.onClick();
    for (const k of ['Enter', ' ', 'a']) {
      const { event, prevented } = key(k);
      row.onKeyDown(event as never);
      expect(prevented()).toBe(k !== 'a');
    }
    // A key pressed in a control inside the row is that control's.
    row.onKeyDown(key('Enter', false).event as never);
    expect(picked).toEqual([1, 1, 1]);
    expect(row).toMatchObject({ tabIndex: 0, 'aria-selected': false });
    expect(props.onRow({ id: 2 })['aria-selected']).toBe(true);
    expect(props.rowClassName({ id: 2 })).toBe('ant-table-row-selected');
    expect(props.dataSource).toBe(list.rows);
  });
});

describe('the total a pager shows', () => {
  it('is 共 N 条 for a count and 约 N 条 for the database’s estimate, with the pager kept', () => {
    expect(totalText(12)).toBe('共 12 条');
    expect(estimatedTotalText(1234567)).toBe('约 1,234,567 条');
    const pager = listTableProps({ ...list, total: 1_234_567, estimated: true }).pagination;
    expect(pager && pager.total).toBe(1_234_567);
    expect(pager && pager.showTotal?.(1_234_567)).toBe('约 1,234,567 条');
    expect((listTableProps(list).pagination || undefined)?.showTotal?.(2)).toBe('共 2 条');
  });
});
