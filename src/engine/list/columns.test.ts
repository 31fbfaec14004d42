import { describe, expect, it } from 'vitest';
import type { ColumnModel } from '../../model';
import { displayOrder, initialVisible, keyColumns, refreshVisible } from './columns';

const col = (name: string, visible = true) => ({ name, visible });

describe('column settings', () => {
  it('start with the columns the definition shows, or all of them when it shows none', () => {
    expect([...initialVisible([col('a'), col('b', false)])]).toEqual(['a']);
    expect([...initialVisible([col('a', false), col('b', false)])]).toEqual(['a', 'b']);
  });

  it("refresh with the table's columns: the user's choice stays, a new column follows the definition, a removed one goes", () => {
    const before = [col('a'), col('b'), col('c')];
    const names = new Set(before.map((c) => c.name));
    const chosen = new Set(['a', 'c']); // the user hid b
    const after = [col('a'), col('b'), col('d'), col('e', false)];
    expect([...refreshVisible(after, chosen, names)]).toEqual(['a', 'd']);
    // Nothing left shown: the definition's columns again.
    expect([...refreshVisible([col('b'), col('x', false)], new Set(['a']), names)]).toEqual(['b']);
  });
});

describe('key columns', () => {
  const c = (name: string, label: string, over: Partial<ColumnModel> = {}): ColumnModel => ({
    name,
    label,
    dataType: 'varchar',
    visible: true,
    tags: false,
    sortable: false,
    overflow: false,
    money: false,
    search: false,
    searchKind: 'text',
    ...over,
  });
  const stockIn = [
    c('wasteCategory', '危废类别', { dict: 'wasteCategory' }),
    c('stockNo', '入库单号'),
    c('remark', '备注'),
    c('quantity', '入库数量', { dataType: 'decimal', unit: '吨' }),
    c('status', '状态', { dict: 'stockStatus' }),
    c('plateNo', '车牌号'),
  ];

  it('are the first number, the states and the quantities', () => {
    expect([...keyColumns(stockIn)]).toEqual([
      ['stockNo', 'number'],
      ['status', 'status'],
      ['quantity', 'quantity'],
    ]);
    // Without a number, what names the record: the first column.
    expect([...keyColumns([c('name', '仓库名称'), c('capacity', '设计贮存能力', { dataType: 'decimal', unit: '吨' })])]).toEqual([
      ['name', 'number'],
      ['capacity', 'quantity'],
    ]);
    // A related record's number, or a choice, is not the record's own number.
    expect(
      keyColumns([
        c('stockId', '来源入库单号', { dataType: 'long', remote: { url: '/x', tree: false, multiple: false, params: [] } }),
        c('no', '订单编号'),
      ]).get('no'),
    ).toBe('number');
  });

  it('come first, number, state, quantity; the rest keep their order', () => {
    expect(displayOrder(stockIn).map((x) => x.name)).toEqual(['stockNo', 'status', 'quantity', 'wasteCategory', 'remark', 'plateNo']);
  });
});
