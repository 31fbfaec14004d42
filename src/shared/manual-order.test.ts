import { describe, expect, it } from 'vitest';
import { MANUAL_ORDER_MESSAGES as M, manualOrderAmount, manualOrderProblems, manualOrderSchema } from './manual-order.js';

const valid = {
  types: '1',
  partyACompany: '1',
  wasteCategoryCode: '900-249-08',
  wasteCategoryName: '废矿物油',
  quantity: '2.5',
  unit: '吨',
  price: '1999.999',
};

describe('manual disposal order rules', () => {
  it('computes amount = price × quantity at 5 decimals, null until both are numbers', () => {
    expect(manualOrderAmount('2.5', '1999.999')).toBe(4999.9975);
    expect(manualOrderAmount(0.333, 0.333)).toBe(0.11089);
    expect(manualOrderAmount(12.345, 2800.125)).toBe(34567.54313);
    expect(manualOrderAmount('', 3)).toBeNull();
    expect(manualOrderAmount('abc', 3)).toBeNull();
  });

  it('defaults needPrepay to no and ignores a prepayment then', () => {
    const v = manualOrderSchema.parse({ ...valid, prepayPrice: 'whatever' });
    expect(v).toMatchObject({ needPrepay: 0, prepayPrice: null, quantity: 2.5, price: 1999.999, amount: 4999.9975 });
  });

  it('requires the prepayment for yes', () => {
    expect(manualOrderProblems({ ...valid, needPrepay: '1' })).toEqual([{ field: 'prepayPrice', message: M.prepayPrice }]);
    expect(manualOrderProblems({ ...valid, needPrepay: 1, prepayPrice: -1 })).toEqual([
      { field: 'prepayPrice', message: M.prepayNotNegative },
    ]);
    expect(manualOrderSchema.parse({ ...valid, needPrepay: 1, prepayPrice: '100.5' }).prepayPrice).toBe(100.5);
  });

  it('reports each field’s first problem in form order', () => {
    expect(manualOrderProblems({}).map((p) => p.message)).toEqual([
      M.types,
      M.partyACompany,
      M.wasteCategoryCode,
      M.wasteCategoryName,
      M.quantity,
      M.unit,
      M.price,
    ]);
    expect(manualOrderProblems({ ...valid, quantity: 0 })).toEqual([{ field: 'quantity', message: M.quantityPositive }]);
    expect(manualOrderProblems({ ...valid, price: '1.0005' })).toEqual([{ field: 'price', message: M.threeDecimals }]);
    expect(manualOrderProblems({ ...valid, partyAPhone: '12012345678' })).toEqual([{ field: 'partyAPhone', message: M.phone }]);
    expect(manualOrderProblems({ ...valid, partyAPhone: '', partyBPhone: '13912345678' })).toEqual([]);
    expect(manualOrderProblems({ ...valid, estDisposalTime: '2026/01/01' })).toEqual([{ field: 'estDisposalTime', message: M.date }]);
    for (const day of ['9999-99-99', '2026-02-29', '2026-13-01', '0000-01-01'])
      expect(manualOrderProblems({ ...valid, estDisposalTime: day }), day).toEqual([{ field: 'estDisposalTime', message: M.date }]);
    expect(manualOrderProblems({ ...valid, estDisposalTime: '2028-02-29' })).toEqual([]);
  });
});
