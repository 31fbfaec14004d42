import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-catalogue';
import { COST_DECIMALS, formatCost, formatMoney, formatWeight, MONEY_DECIMALS } from './format';
import { PASSWORD_RULE_MESSAGE } from './password-rule';
import {
  APPLICATION_STATUS,
  CONTRACT_STATUS,
  INQUIRY_STATUS,
  ORDER_STATUS,
  STATUS_FAMILIES,
  STOCK_STATUS,
  statusLabel,
  statusName,
  toneColor,
  VEHICLE_STATUS,
} from './statuses';

describe('one status vocabulary', () => {
  it('names every order state once, for disposal and logistics orders alike', () => {
    expect(ORDER_STATUS.dict).toBe('orderStatus');
    expect(ORDER_STATUS.entries.map((e) => [e.value, e.label])).toEqual([
      ['0', '待确认'],
      ['1', '执行中'],
      ['2', '已完成'],
      ['3', '已取消'],
      ['4', '已驳回'],
    ]);
    expect(statusName(ORDER_STATUS, 'pending')).toBe('待确认');
    expect(statusName(ORDER_STATUS, 'ongoing')).toBe('执行中');
    expect(statusName(ORDER_STATUS, 'rejected')).toBe('已驳回');
    expect(statusLabel(ORDER_STATUS, 4)).toBe('已驳回');
    expect(statusLabel(ORDER_STATUS, '9')).toBeUndefined();
    expect(statusLabel(ORDER_STATUS, null)).toBeUndefined();
  });

  it('keeps the other families: inquiries, stock, contracts, vehicles, applications', () => {
    expect(INQUIRY_STATUS.entries.map((e) => e.label)).toEqual(['待报价', '已报价', '已关闭', '已驳回']);
    expect(STOCK_STATUS.entries.map((e) => e.label)).toEqual(['待入库', '已入库', '已出库']);
    expect(CONTRACT_STATUS.entries.map((e) => e.label)).toEqual(['草稿', '待签署', '生效中', '已到期', '已终止']);
    expect(VEHICLE_STATUS.entries.map((e) => e.label)).toEqual(['空闲', '运输中', '维修中', '停用']);
    expect(APPLICATION_STATUS.entries.map((e) => e.label)).toEqual(['待审核', '已通过', '已驳回']);
    expect(APPLICATION_STATUS.dict).toBeUndefined();
  });

  it('gives a state one name within its family, and each family its own dictionary', () => {
    for (const f of STATUS_FAMILIES) {
      const labels = f.entries.map((e) => e.label);
      expect(new Set(labels).size, f.title).toBe(labels.length);
      expect(Object.values(f.codes)).toEqual(f.entries.map((e) => e.value));
    }
    const dicts = STATUS_FAMILIES.flatMap((f) => (f.dict ? [f.dict] : []));
    expect(new Set(dicts).size).toBe(dicts.length);
  });

  it('colours tags by tone', () => {
    expect(toneColor('success')).toBe('success');
    expect(toneColor('info')).toBe('default');
    expect(toneColor('warning')).toBe('warning');
    expect(toneColor('danger')).toBe('error');
    expect(toneColor('')).toBe('processing');
  });
});

describe('money, cost figures and weights', () => {
  it('shows money with 2 decimals and cost figures and weights with 3', () => {
    expect(MONEY_DECIMALS).toBe(2);
    expect(COST_DECIMALS).toBe(3);
    expect(formatMoney(1841.47)).toBe('1,841.47');
    expect(formatMoney('69626.5734')).toBe('69,626.57');
    expect(formatCost(69626.5734)).toBe('69,626.573');
    expect(formatWeight(2.75)).toBe('2.750');
    expect(formatMoney(null)).toBe('-');
  });
});

describe('the password rule', () => {
  it('says the rule in the same words in the hint and in the server refusal', () => {
    expect(errorMessage('PASSWORD_RULE')).toBe(PASSWORD_RULE_MESSAGE);
  });
});
