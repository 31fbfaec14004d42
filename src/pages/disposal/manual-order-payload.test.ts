import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { manualOrderProblems } from '../../shared/manual-order';
import { regionLabels } from './lookups';
import { manualOrderPayload, type PayloadContext } from './manual-order-payload';

const regions = [
  {
    value: '320000',
    label: '江苏省',
    children: [{ value: '320500', label: '苏州市', children: [{ value: '320505', label: '虎丘区' }] }],
  },
];
const processes = [{ id: 1, name: '焚烧', code: 'D10', pid: null }];
const subProcesses = [{ id: 2, name: '回转窑焚烧', code: 'D10-01', pid: 1 }];
const ctx: PayloadContext = { regions, processes, subProcesses, copiedRegionFmt: {} };

const form = {
  types: '1',
  needPrepay: 0 as const,
  partyACompany: '1',
  partyACompanyName: '苏州华瑞精细化工有限公司',
  partyAPhone: ' 13862100003 ',
  partyARegion: ['320000', '320500', '320505'],
  partyBRegion: ['320000', '999999'],
  wasteCategoryCode: '900-249-08',
  wasteCategoryName: '废矿物油',
  quantity: 12.345,
  unit: '吨',
  price: 2800.125,
  processId: 1,
  processSubId: 2,
  estDisposalTime: dayjs('2026-12-01'),
  remark: '   ',
};

describe('the manual order body', () => {
  it('sends every field the server keeps, blanks left out, in the shapes the server reads', () => {
    const body = manualOrderPayload(form, { ...ctx, copiedRegionFmt: { partyB: '江苏省/某市' } });
    expect(body).toMatchObject({
      types: '1',
      needPrepay: 0,
      partyAPhone: '13862100003',
      partyARegion: '320000,320500,320505',
      partyARegionFmt: '江苏省/苏州市/虎丘区',
      // Codes the tree does not know keep the labels copied from the contract or unloading point.
      partyBRegion: '320000,999999',
      partyBRegionFmt: '江苏省/某市',
      amount: 34567.54313,
      processIdFmt: '焚烧',
      processCode: 'D10',
      processSubIdFmt: '回转窑焚烧',
      processSubCode: 'D10-01',
      estDisposalTime: '2026-12-01',
    });
    expect(body).not.toHaveProperty('remark');
    expect(body).not.toHaveProperty('prepayPrice');
    expect(manualOrderProblems(body)).toEqual([]);
  });

  it('sends the prepayment only when prepay is yes', () => {
    expect(manualOrderPayload({ ...form, needPrepay: 0, prepayPrice: 100 }, ctx)).not.toHaveProperty('prepayPrice');
    const yes = manualOrderPayload({ ...form, needPrepay: 1, prepayPrice: 100.5 }, ctx);
    expect(yes).toMatchObject({ needPrepay: 1, prepayPrice: 100.5 });
    expect(manualOrderProblems({ ...yes, prepayPrice: undefined })).toEqual([{ field: 'prepayPrice', message: '请输入预付金额' }]);
  });

  it('keeps a contract number only with its contract', () => {
    expect(manualOrderPayload({ ...form, contractNo: 'HT-1' }, ctx)).not.toHaveProperty('contractNo');
    expect(manualOrderPayload({ ...form, contractId: 3, contractNo: 'HT-1' }, ctx)).toMatchObject({ contractId: 3, contractNo: 'HT-1' });
  });
});

describe('regionLabels', () => {
  it('names a path of codes, or nothing when a code is unknown', () => {
    expect(regionLabels(regions, ['320000', '320500'])).toBe('江苏省/苏州市');
    expect(regionLabels(regions, ['320000', '320600'])).toBeUndefined();
  });
});
