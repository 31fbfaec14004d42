import type { RouteQuery } from './named-routes';

/**
 * What each 数据汇总 tile counts, as its list's search (the list shows it in its search form and
 * address, so the list's total is the tile's number): this year's services (disposal orders by
 * 创建时间), contracts (by 签订日期) and transfers (logistics orders by 装车时间), each in the
 * statuses the figure counts (not cancelled or rejected; contracts signed).
 */
export function summaryTileQueries(year: number): Record<'server' | 'contract' | 'transshipment', RouteQuery> {
  const days = [`${year}-01-01`, `${year}-12-31`];
  return {
    server: { orderStatus: ['0', '1', '2'], startTime: `${year}-01-01 00:00:00`, endTime: `${year}-12-31 23:59:59` },
    contract: { contractStatus: ['1', '2', '3'], signDate: days },
    transshipment: { orderStatus: ['0', '1', '2'], loadTime: days },
  };
}
