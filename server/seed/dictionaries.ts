import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

/** The dictionaries the seeded views, business pages and public pages name, with their entries in order. */

interface DictSeed {
  name: string;
  description: string;
  entries: [value: string, label: string, type?: 'success' | 'info' | 'warning' | 'danger'][];
}

export const DICTS: DictSeed[] = [
  {
    name: 'companyType',
    description: '企业类型',
    entries: [
      ['1', '产废企业'],
      ['2', '处置企业'],
      ['3', '物流企业'],
      ['4', '收集点'],
      ['5', '仓储企业'],
    ],
  },
  {
    name: 'onAndOff',
    description: '开关状态',
    entries: [
      ['1', '开启', 'success'],
      ['0', '关闭', 'info'],
    ],
  },
  {
    name: 'logistics_inquiry_type',
    description: '物流询价类型',
    entries: [
      ['1', '整车运输'],
      ['2', '零担运输'],
      ['3', '危废专线'],
    ],
  },
  {
    name: 'goods_type',
    description: '货物类型',
    entries: [
      ['1', '危险废物'],
      ['2', '一般工业固废'],
      ['3', '医疗废物'],
      ['4', '危险化学品'],
    ],
  },
  {
    name: 'patterns',
    description: '物理形态',
    entries: [
      ['1', '固态'],
      ['2', '半固态'],
      ['3', '液态'],
      ['4', '气态'],
    ],
  },
  {
    name: 'package_type',
    description: '包装方式',
    entries: [
      ['1', '吨袋'],
      ['2', '桶装'],
      ['3', '散装'],
      ['4', '托盘'],
      ['5', '编织袋'],
      ['6', 'IBC吨桶'],
    ],
  },
  {
    name: 'disposalTypes',
    description: '处置类型（手工处置单）',
    entries: [
      ['1', '焚烧处置'],
      ['2', '填埋处置'],
      ['3', '物化处理'],
      ['4', '综合利用'],
      ['5', '收集贮存'],
    ],
  },
  {
    name: 'weightUnit',
    description: '重量单位',
    entries: [
      ['1', '吨'],
      ['2', '千克'],
    ],
  },
  {
    name: 'motorcycle_type',
    description: '车辆类型',
    entries: [
      ['1', '危险品厢式货车'],
      ['2', '罐式货车'],
      ['3', '栏板货车'],
      ['4', '半挂牵引车'],
      ['5', '仓栅式货车'],
    ],
  },
  {
    name: 'commonStatus',
    description: '通用状态',
    entries: [
      ['1', '正常', 'success'],
      ['0', '停用', 'info'],
    ],
  },
  {
    name: 'inquiryStatus',
    description: '询价状态',
    entries: [
      ['0', '待报价', 'warning'],
      ['1', '已报价', 'success'],
      ['2', '已关闭', 'info'],
      ['3', '已驳回', 'danger'],
    ],
  },
  {
    name: 'yesOrNo',
    description: '是否',
    entries: [
      ['1', '是'],
      ['2', '否'],
    ],
  },
  {
    name: 'wasteCategory',
    description: '危险废物类别（《国家危险废物名录》）',
    entries: [
      ['HW06', 'HW06 废有机溶剂与含有机溶剂废物'],
      ['HW08', 'HW08 废矿物油与含矿物油废物'],
      ['HW09', 'HW09 油/水、烃/水混合物或乳化液'],
      ['HW12', 'HW12 染料、涂料废物'],
      ['HW13', 'HW13 有机树脂类废物'],
      ['HW17', 'HW17 表面处理废物'],
      ['HW18', 'HW18 焚烧处置残渣'],
      ['HW22', 'HW22 含铜废物'],
      ['HW31', 'HW31 含铅废物'],
      ['HW34', 'HW34 废酸'],
      ['HW35', 'HW35 废碱'],
      ['HW49', 'HW49 其他废物'],
      ['HW50', 'HW50 废催化剂'],
    ],
  },
  {
    name: 'stockStatus',
    description: '库存状态',
    entries: [
      ['0', '待入库', 'warning'],
      ['1', '已入库', 'success'],
      ['2', '已出库', 'info'],
    ],
  },
  {
    name: 'contractStatus',
    description: '合同状态',
    entries: [
      ['0', '草稿', 'info'],
      ['1', '待签署', 'warning'],
      ['2', '生效中', 'success'],
      ['3', '已到期', 'info'],
      ['4', '已终止', 'danger'],
    ],
  },
  {
    name: 'vehicleStatus',
    description: '车辆状态',
    entries: [
      ['0', '空闲', 'success'],
      ['1', '运输中', 'warning'],
      ['2', '维修中', 'danger'],
      ['3', '停用', 'info'],
    ],
  },
  {
    name: 'orderStatus',
    description: '订单状态',
    entries: [
      ['0', '待确认', 'warning'],
      ['1', '执行中'],
      ['2', '已完成', 'success'],
      ['3', '已取消', 'info'],
      ['4', '已驳回', 'danger'],
    ],
  },
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
