/**
 * The supervisory department's home: summaries, to-dos, costs and statistics against yearly targets,
 * and the producing companies behind its figures. Any signed-in user reaches the calls; the handler
 * answers them to those of data scope 全部 only (SUPERVISORS_ONLY).
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { judgedByHandler, nullableText, ok } from './fields.js';
import { numbers, refreshOnly } from './figures.js';
import { pageFields } from './paging.js';

/** Names of the supervisory statistics, each answered with `{name}Target` and `{name}Progress`. */
export const STATISTICS = [
  'allCompany',
  'managementCompany',
  'material',
  'disposalOrder',
  'logisticsOrder',
  'disposalVolume',
  'wasteVolume',
  'contractAmount',
  'tradingVolume',
  'paymentAmount',
] as const;
export type Statistic = (typeof STATISTICS)[number];

/** A figure of the supervisory home: its fields, and when it was computed (also as refreshTime). */
export const homeFigureOf = <S extends z.ZodRawShape>(shape: S) => z.object({ ...shape, refreshTime: z.string(), computedAt: z.string() });

const statisticsShape = Object.fromEntries(
  STATISTICS.flatMap((n) => [
    [n, z.number()],
    [`${n}Target`, z.number().nullable()],
    [`${n}Progress`, z.number().nullable()],
  ]),
) as unknown as Record<Statistic, z.ZodNumber> & Record<`${Statistic}${'Target' | 'Progress'}`, z.ZodNullable<z.ZodNumber>>;

/** A yearly target of a statistic, judged by the handler so that each field's message is answered as it is. */
export const targetBody = z.object({
  name: z.enum(STATISTICS, { message: '目标名称不正确' }),
  year: z.coerce.number().int().min(2000, '年份不正确').max(2100, '年份不正确').optional(),
  value: z.coerce.number({ message: '请输入目标值' }).min(0, '目标不能为负数').max(1e15, '目标过大'),
});

const flag = z.enum(['0', '1']).optional();

/** A producing company behind the figures: this year's stocked-in tons, and whether it has a contract in force and a service this year. */
export const supervisedCompany = z.object({
  id: z.number(),
  name: z.string(),
  ...nullableText('creditCode', 'regionFmt', 'address', 'contactName', 'contactPhone'),
  yearStockTons: z.number(),
  micro: z.boolean(),
  haveContract: z.boolean(),
  haveServer: z.boolean(),
});
export type SupervisedCompany = z.infer<typeof supervisedCompany>;

/** A figure of the home, for supervisors only, recomputed on isRefresh=1. */
const homeFigure = <S extends z.ZodRawShape>(path: `/api/companyApi/homePage/${string}`, summary: string, shape: S) =>
  call({
    method: 'GET',
    path,
    summary,
    access: 'session',
    query: refreshOnly,
    answer: homeFigureOf(shape),
    errors: ['SUPERVISORS_ONLY'],
  });

export const supervision = resource('supervision', '监管看板', {
  dataSummary: homeFigure(
    '/api/companyApi/homePage/dataSummary',
    '数据汇总',
    numbers('microCompanyCount', 'yearServerCount', 'yearContractCount', 'yearTransshipmentCount'),
  ),
  contractSummary: homeFigure(
    '/api/companyApi/homePage/contractSummary',
    '合同汇总',
    numbers('haveContractCompanyCount', 'unContractCompanyCount', 'totalContractCompanyCount'),
  ),
  serverSummary: homeFigure(
    '/api/companyApi/homePage/serverSummary',
    '服务汇总',
    numbers('haveServerCompanyCount', 'unServerCompanyCount'),
  ),
  toDoData: homeFigure(
    '/api/companyApi/homePage/toDoData',
    '待办事项',
    numbers('unFinishTransshipmentCount', 'toDoServerCount', 'beUpdateServerCount', 'beAuditPlanCount'),
  ),
  costInfo: homeFigure(
    '/api/companyApi/homePage/costInfo',
    '费用信息',
    numbers(
      'disposalAmount',
      'disposalQuantity',
      'avgDisposalPrice',
      'prepaidAmount',
      'freightAmount',
      'transportWeight',
      'avgFreightPerTon',
    ),
  ),
  statistics: homeFigure('/api/companyApi/homePage/statistics', '年度统计与目标', { ...statisticsShape, year: z.number() }),
  target: call('PUT', '/api/companyApi/homePage/target', '修改年度目标', 'session', {
    log: '修改年度目标',
    body: judgedByHandler(targetBody),
    answer: ok,
    errors: ['SUPERVISORS_ONLY'],
    example: { body: { name: 'material', year: 2000, value: 0 } },
  }),
  /**
   * Filters: `micro=1` the small and micro companies, `haveYearCount` 1/0 with or without a contract in
   * force, `haveServerCount` 1/0 with or without a disposal order this year, `blurry` part of the name or
   * credit code; the same rules as the figures, so a tile's count is the list's total.
   */
  companies: call('GET', '/api/companyApi/homePage/companies', '监管看板的产废企业', 'session', {
    query: z.object({
      micro: flag,
      haveYearCount: flag,
      haveServerCount: flag,
      blurry: z.string().trim().max(100).optional(),
      ...pageFields,
    }),
    answer: z.object({ content: z.array(supervisedCompany), totalElements: z.number() }),
    errors: ['SUPERVISORS_ONLY'],
  }),
});
