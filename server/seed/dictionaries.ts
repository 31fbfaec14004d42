import type { Transaction } from 'kysely';
import {
  CONTRACT_STATUS,
  INQUIRY_STATUS,
  ORDER_STATUS,
  STOCK_STATUS,
  type StatusFamily,
  VEHICLE_STATUS,
} from '../../src/shared/statuses.js';
import type { DB } from '../db/schema.js';

/** The dictionaries the seeded views, business pages and public pages name, with their entries in order. */

type Tone = 'success' | 'info' | 'warning' | 'danger';

interface DictSeed {
  name: string;
  description: string;
  entries: [value: string, label: string, type?: Tone | ''][];
}

/** A dictionary whose values count 1, 2, … in the order of its labels. */
const numbered = (name: string, description: string, labels: string[]): DictSeed => ({
  name,
  description,
  entries: labels.map((label, i) => [String(i + 1), label]),
});

/** A status family's dictionary (src/shared/statuses.ts): its codes, names and tag tones. */
const states = (family: StatusFamily): DictSeed => ({
  name: family.dict ?? '',
  description: family.title,
  entries: family.entries.map((e) => [e.value, e.label, e.tone]),
});

/** An on/off dictionary: 1 on (success), 0 off (info). */
const onOff = (name: string, description: string, on: string, off: string): DictSeed => ({
  name,
  description,
  entries: [
    ['1', on, 'success'],
    ['0', off, 'info'],
  ],
});

export const DICTS: DictSeed[] = [
  numbered('companyType', '企业类型', ['产废企业', '处置企业', '物流企业', '收集点', '仓储企业']),
  onOff('onAndOff', '开关状态', '开启', '关闭'),
  numbered('logistics_inquiry_type', '物流询价类型', ['整车运输', '零担运输', '危废专线']),
  numbered('goods_type', '货物类型', ['危险废物', '一般工业固废', '医疗废物', '危险化学品']),
  numbered('patterns', '物理形态', ['固态', '半固态', '液态', '气态']),
  numbered('package_type', '包装方式', ['吨袋', '桶装', '散装', '托盘', '编织袋', 'IBC吨桶']),
  numbered('disposalTypes', '处置类型（手工处置单）', ['焚烧处置', '填埋处置', '物化处理', '综合利用', '收集贮存']),
  numbered('weightUnit', '重量单位', ['吨', '千克']),
  numbered('motorcycle_type', '车辆类型', ['危险品厢式货车', '罐式货车', '栏板货车', '半挂牵引车', '仓栅式货车']),
  onOff('commonStatus', '通用状态', '正常', '停用'),
  states(INQUIRY_STATUS),
  numbered('yesOrNo', '是否', ['是', '否']),
  {
    name: 'wasteCategory',
    description: '危险废物类别（《国家危险废物名录》）',
    // the value is the class code the label starts with
    entries: [
      'HW06 废有机溶剂与含有机溶剂废物',
      'HW08 废矿物油与含矿物油废物',
      'HW09 油/水、烃/水混合物或乳化液',
      'HW12 染料、涂料废物',
      'HW13 有机树脂类废物',
      'HW17 表面处理废物',
      'HW18 焚烧处置残渣',
      'HW22 含铜废物',
      'HW31 含铅废物',
      'HW34 废酸',
      'HW35 废碱',
      'HW49 其他废物',
      'HW50 废催化剂',
    ].map((label) => [label.slice(0, 4), label]),
  },
  states(STOCK_STATUS),
  states(CONTRACT_STATUS),
  states(VEHICLE_STATUS),
  states(ORDER_STATUS),
];

export async function seedDictionaries(trx: Transaction<DB>): Promise<void> {
  for (const d of DICTS) {
    const { id } = await trx
      .insertInto('sys_dict')
      .values({ name: d.name, description: d.description })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('sys_dict_detail')
      .values(d.entries.map(([value, label, type], i) => ({ dict_id: id, value, label, type: type ?? '', sort: i + 1 })))
      .execute();
  }
}
