import { Button, Col, Empty, Flex, List, Progress, Row, Typography } from 'antd';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import type { CallAnswer } from '../../contract/define';
import { type Statistic, supervision } from '../../contract/supervision';
import { useSession } from '../../session/session-store';
import { formatCost, formatMoney } from '../../shared/format';
import { BlockGrid, FigureBlock, THIRD, WHOLE } from './block';
import { EChart } from './echart';
import { namedRouteHref, type RouteQuery } from './named-routes';
import { summaryTileQueries } from './tile-filters';
import { Tile, TileBlock, type TileCall, tileBlock, tons } from './tiles';
import { useFigure } from './use-figure';

/** The fields every supervisory figure answers: when it was computed, also as refreshTime. */
interface Timed {
  refreshTime: string;
  computedAt: string;
}

/** A call of the supervisory home answering a figure. */
type HomeCall = TileCall & { answer: z.ZodType<Timed> };

/** A link to a named route of the user's menus; plain text when the user has no such page. */
function useNamedLink() {
  const { menus } = useSession();
  const navigate = useNavigate();
  return useCallback(
    (name: string, query: RouteQuery = {}) => {
      const href = namedRouteHref(menus, name, query);
      return href ? () => navigate(href) : undefined;
    },
    [menus, navigate],
  );
}

/** When a supervisory figure was computed: its refreshTime. */
const refreshTime = (d: Timed) => d.refreshTime;

/** 数据汇总: this year's companies, services, contracts and transfers, each opening its list. */
function SummaryBlock() {
  const link = useNamedLink();
  const q = summaryTileQueries(new Date().getFullYear());
  return (
    <TileBlock
      title="数据汇总"
      testId="dash-summary"
      call={supervision.calls.dataSummary}
      computedAt={refreshTime}
      tiles={(d) => [
        { testId: 'summary-micro', label: '小微企业', value: d.microCompanyCount, suffix: '家', onOpen: link('summaryPage', { micro: 1 }) },
        {
          testId: 'summary-server',
          label: '本年服务',
          value: d.yearServerCount,
          suffix: '次',
          onOpen: link('microServe', q.server),
        },
        {
          testId: 'summary-contract',
          label: '本年合同',
          value: d.yearContractCount,
          suffix: '份',
          onOpen: link('contractManage', q.contract),
        },
        {
          testId: 'summary-transshipment',
          label: '本年转运',
          value: d.yearTransshipmentCount,
          suffix: '次',
          onOpen: link('inventoryReview', q.transshipment),
        },
      ]}
    />
  );
}

/** 费用信息: this year's disposal and freight, in yuan and tons, and their averages. */
const CostBlock = tileBlock({
  title: '费用信息',
  testId: 'dash-cost',
  call: supervision.calls.costInfo,
  computedAt: refreshTime,
  col: { xs: 12, md: 8, xl: 6 },
  tiles: (d) => [
    { label: '本年处置金额', value: formatMoney(d.disposalAmount), suffix: '元' },
    { label: '本年处置量', value: tons(d.disposalQuantity), suffix: '吨' },
    { label: '平均处置单价', value: formatCost(d.avgDisposalPrice), suffix: '元/吨' },
    { label: '本年预付金额', value: formatMoney(d.prepaidAmount), suffix: '元' },
    { label: '本年运费', value: formatMoney(d.freightAmount), suffix: '元' },
    { label: '本年运输量', value: tons(d.transportWeight), suffix: '吨' },
    { label: '平均运费', value: formatCost(d.avgFreightPerTon), suffix: '元/吨' },
  ],
});

interface Slice {
  name: string;
  value: number;
  onOpen?: () => void;
}

/** A pie with its legend: each slice's count, and a link to the companies behind it. */
function Pie({ slices, label }: { slices: Slice[]; label: string }) {
  const counts = JSON.stringify(slices.map((s) => [s.name, s.value]));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart changes only when the counts do
  const option = useMemo(
    () => ({
      color: ['#2F6EFF', '#FFB020'],
      legend: { bottom: 0 },
      series: [
        {
          type: 'pie',
          radius: ['40%', '68%'],
          center: ['50%', '45%'],
          label: { formatter: '{b}\n{c}' },
          data: slices.map((s) => ({ name: s.name, value: s.value })),
        },
      ],
    }),
    [counts],
  );
  const total = slices.reduce((n, s) => n + s.value, 0);
  return (
    <>
      {total === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无企业" />
      ) : (
        <EChart option={option} height={220} label={label} />
      )}
      <Flex justify="center" gap={16} wrap>
        {slices.map((s) => (
          <Button key={s.name} type="link" size="small" onClick={s.onOpen} disabled={!s.onOpen} data-testid={`pie-${s.name}`}>
            {s.name} {s.value} 家
          </Button>
        ))}
      </Flex>
    </>
  );
}

/** A pie of the companies with and without something: each slice opens the company list filtered by `filter`. */
function CompanyPieBlock<C extends HomeCall>({
  call,
  title,
  testId,
  label,
  names,
  filter,
  slices,
}: {
  call: C;
  title: string;
  testId: string;
  label: (d: CallAnswer<C>) => string;
  names: [yes: string, no: string];
  filter: string;
  slices: (d: CallAnswer<C>) => [yes: number, no: number];
}) {
  const f = useFigure(call);
  const link = useNamedLink();
  return (
    <FigureBlock title={title} testId={testId} figure={f} computedAt={(f.data as Timed | null)?.refreshTime}>
      {(d) => {
        const [yes, no] = slices(d);
        return (
          <Pie
            slices={[
              { name: names[0], value: yes, onOpen: link('companyMange', { [filter]: 1 }) },
              { name: names[1], value: no, onOpen: link('companyMange', { [filter]: 0 }) },
            ]}
            label={label(d)}
          />
        );
      }}
    </FigureBlock>
  );
}

function ToDoBlock() {
  const f = useFigure(supervision.calls.toDoData);
  return (
    <FigureBlock title="待办事项" testId="dash-todo" figure={f} computedAt={f.data?.refreshTime}>
      {(d) => (
        <List
          size="small"
          dataSource={[
            { label: '未完成转运', value: d.unFinishTransshipmentCount },
            { label: '待确认服务', value: d.toDoServerCount },
            { label: '待修改服务', value: d.beUpdateServerCount },
            { label: '待审核入驻申请', value: d.beAuditPlanCount },
          ]}
          renderItem={(i) => (
            <List.Item
              key={i.label}
              extra={
                <Typography.Text strong type={i.value > 0 ? 'danger' : 'secondary'}>
                  {i.value}
                </Typography.Text>
              }
            >
              {i.label}
            </List.Item>
          )}
        />
      )}
    </FigureBlock>
  );
}

/** The statistics shown as tiles with their progress against this year's target. */
const STATISTIC_TILES: { key: Statistic; label: string; unit: string; money?: boolean }[] = [
  { key: 'allCompany', label: '产废企业', unit: '家' },
  { key: 'managementCompany', label: '处置企业', unit: '家' },
  { key: 'material', label: '收集企业', unit: '家' },
  { key: 'disposalOrder', label: '处置订单', unit: '单' },
  { key: 'contractAmount', label: '合同金额', unit: '元', money: true },
  { key: 'tradingVolume', label: '交易额', unit: '元', money: true },
  { key: 'paymentAmount', label: '支付金额', unit: '元', money: true },
];

function StatisticsBlock() {
  const f = useFigure(supervision.calls.statistics);
  const d = f.data;
  return (
    <FigureBlock title={d ? `${d.year}年统计` : '统计'} testId="dash-statistics" figure={f} computedAt={d?.refreshTime}>
      {(d) => (
        <Row gutter={[16, 16]}>
          {STATISTIC_TILES.map((s) => {
            const value = Number(d[s.key] ?? 0);
            const target = d[`${s.key}Target`];
            const progress = d[`${s.key}Progress`];
            return (
              <Col xs={12} md={8} xl={6} key={s.key} data-testid={`statistic-${s.key}`}>
                <Tile label={s.label} value={s.money ? formatMoney(value) : value} suffix={s.unit} />
                {target === null || target === undefined ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    未设置年度目标
                  </Typography.Text>
                ) : (
                  <>
                    <Progress percent={Math.min(100, Number(progress ?? 0))} format={() => `${progress ?? 0}%`} size="small" />
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      目标 {s.money ? formatMoney(target) : target} {s.unit}
                    </Typography.Text>
                  </>
                )}
              </Col>
            );
          })}
        </Row>
      )}
    </FigureBlock>
  );
}

/** The supervisory home: summary, cost, contract and service pies, to-do list and statistics. */
export function SupervisorHome() {
  return (
    <BlockGrid
      testId="dashboard-supervisor"
      blocks={[
        { col: WHOLE, block: <SummaryBlock /> },
        { col: WHOLE, block: <CostBlock /> },
        {
          col: THIRD,
          block: (
            <CompanyPieBlock
              call={supervision.calls.contractSummary}
              title="合同汇总"
              testId="dash-contract-pie"
              label={(d) => `产废企业合同情况：共${d.totalContractCompanyCount}家`}
              names={['已签约', '未签约']}
              filter="haveYearCount"
              slices={(d) => [d.haveContractCompanyCount, d.unContractCompanyCount]}
            />
          ),
        },
        {
          col: THIRD,
          block: (
            <CompanyPieBlock
              call={supervision.calls.serverSummary}
              title="服务汇总"
              testId="dash-server-pie"
              label={() => '产废企业本年服务情况'}
              names={['已服务', '未服务']}
              filter="haveServerCount"
              slices={(d) => [d.haveServerCompanyCount, d.unServerCompanyCount]}
            />
          ),
        },
        { col: THIRD, block: <ToDoBlock /> },
        { col: WHOLE, block: <StatisticsBlock /> },
      ]}
    />
  );
}
