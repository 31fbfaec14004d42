import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import { COMPANY } from './ids.js';

/**
 * Dashboard seed: bulletins, this year's targets of the supervisory statistics, the filling-system
 * company ids (bciId) of two demo companies, and inventory limits of the producer's warehouses. The
 * figures themselves are never seeded: they are computed from the business records, which belong to
 * their companies (records.ts), so each demo account's dashboard counts its own business.
 */

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

const BULLETINS: [title: string, content: string, daysAgo: number, status: number][] = [
  [
    '关于开展2026年度危险废物规范化环境管理评估的通知',
    '<p>各产废单位、经营单位：</p><p>请于本月底前完成危险废物管理计划备案、台账与转移联单的自查，平台将于下月起开展抽查。</p>',
    2,
    10,
  ],
  ['危险废物转移联单电子化运行说明', '<p>自即日起，省内危险废物转移一律通过平台生成电子联单，纸质联单不再受理。</p>', 9, 10],
  ['平台系统升级维护公告', '<p>平台将于本周六 22:00 至次日 02:00 进行升级维护，期间暂停服务，请提前安排业务。</p>', 20, 10],
  ['小微企业危废收集服务试点扩围', '<p>试点范围扩大至苏州、无锡、常州三市，年产废量不足10吨的企业可就近委托收集点收集。</p>', 35, 10],
  ['（草稿）第四季度危废处置价格指导', '<p>编辑中，未发布。</p>', 1, 0],
];

/** Yearly targets of the supervisory statistics (counts of companies and orders, tons, yuan). */
const TARGETS: [name: string, value: number][] = [
  ['allCompany', 12],
  ['managementCompany', 6],
  ['material', 3],
  ['disposalOrder', 60],
  ['logisticsOrder', 50],
  ['disposalVolume', 800],
  ['wasteVolume', 1200],
  ['contractAmount', 20_000_000],
  ['tradingVolume', 5_000_000],
  ['paymentAmount', 3_000_000],
];

export async function seedDashboard(trx: Transaction<DB>): Promise<void> {
  await trx
    .insertInto('bulletin')
    .values(
      BULLETINS.map(([title, content, days, status]) => ({
        title,
        content,
        status,
        views: Math.max(0, 40 - days),
        create_by: 'admin',
        create_time: ago(days),
        update_time: ago(days),
      })),
    )
    .execute();
  const year = new Date().getFullYear();
  await trx
    .insertInto('dash_target')
    .values(TARGETS.map(([name, value]) => ({ name, year, value })))
    .execute();
  await trx.updateTable('company').set({ bci_id: 'BCI3205050001' }).where('id', '=', COMPANY.producer).execute();
  await trx.updateTable('company').set({ bci_id: 'BCI3201150002' }).where('id', '=', COMPANY.disposer).execute();
  const warehouses = await trx
    .selectFrom('company_warehouse')
    .select('id')
    .where('company_id', '=', COMPANY.producer)
    .orderBy('id')
    .execute();
  const first = warehouses[0]?.id ?? null;
  await trx
    .insertInto('inventory_config')
    .values([
      {
        company_id: COMPANY.producer,
        warehouse_id: null,
        waste_category: null,
        max_quantity: 200,
        remark: '全厂危废贮存上限',
        create_by: 'admin',
      },
      {
        company_id: COMPANY.producer,
        warehouse_id: first,
        waste_category: 'HW08',
        max_quantity: 20,
        remark: '废矿物油单库上限',
        create_by: 'admin',
      },
    ])
    .execute();
}
