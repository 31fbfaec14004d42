import { Button, Col, Empty, Flex, List, Progress, Row, Typography } from 'antd';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../session/session-store';
import { formatMoney } from '../../shared/format';
import { Block } from './block';
import { EChart } from './echart';
import { Tile, tons } from './full-dashboard';
import { namedRouteHref } from './named-routes';
import { useFigure } from './use-figure';

const BASE = '/api/companyApi/homePage';

interface Timed {
  refreshTime: string;
  computedAt: string;
}

interface Summary extends Timed {
  microCompanyCount: number;
  yearServerCount: number;
  yearContractCount: number;
  yearTransshipmentCount: number;
}

interface ContractSummary extends Timed {
  haveContractCompanyCount: number;
  unContractCompanyCount: number;
  totalContractCompanyCount: number;
}

interface ServerSummary extends Timed {
  haveServerCompanyCount: number;
  unServerCompanyCount: number;
}

interface ToDo extends Timed {
  unFinishTransshipmentCount: number;
  toDoServerCount: number;
  beUpdateServerCount: number;
  beAuditPlanCount: number;
}

interface Cost extends Timed {
  disposalAmount: number;
  disposalQuantity: number;
  avgDisposalPrice: number;
  prepaidAmount: number;
  freightAmount: number;
  transportWeight: number;
  avgFreightPerTon: number;
}

type Statistics = Timed & { year: number } & Record<string, number | null>;

/** A link to a named route of the user's menus; plain text when the user has no such page. */
function useNamedLink() {
  const { menus } = useSession();
  const navigate = useNavigate();
  return useCallback(
    (name: string, query: Record<string, string | number> = {}) => {
      const href = namedRouteHref(menus, name, query);
      return href ? () => navigate(href) : undefined;
    },
    [menus, navigate],
  );
}

function LinkTile({
  label,
  value,
  suffix,
  onOpen,
  testId,
}: {
  label: string;
  value: number | string;
  suffix?: string;
  onOpen?: () => void;
  testId: string;
}) {
  const body = <Tile label={label} value={value} suffix={suffix} />;
  if (!onOpen) return <div data-testid={testId}>{body}</div>;
  return (
    <button
      type="button"
      data-testid={testId}
      onClick={onOpen}
      className="wg-dash-link-tile"
      style={{ all: 'unset', cursor: 'pointer', display: 'block', width: '100%' }}
      aria-label={`${label} ${value}${suffix ?? ''}，查看详情`}
    >
      {body}
    </button>
  );
}

function SummaryBlock() {
  const f = useFigure<Summary>(`${BASE}/dataSummary`);
  const link = useNamedLink();
  const d = f.data;
  return (
    <Block
      title="数据汇总"
      testId="dash-summary"
      computedAt={d?.refreshTime}
      loading={f.loading}
      error={f.error}
      ready={d !== null}
      onRefresh={() => f.reload()}
    >
      {d && (
        <Row gutter={[16, 16]}>
          <Col xs={12} md={6}>
            <LinkTile testId="summary-micro" label="小微企业" value={d.microCompanyCount} suffix="家" onOpen={link('summaryPage')} />
          </Col>
          <Col xs={12} md={6}>
            <LinkTile
              testId="summary-server"
              label="本年服务"
              value={d.yearServerCount}
              suffix="次"
              onOpen={link('microServe', { auditStatus: 1 })}
            />
          </Col>
          <Col xs={12} md={6}>
            <LinkTile testId="summary-contract" label="本年合同" value={d.yearContractCount} suffix="份" onOpen={link('contractManage')} />
          </Col>
          <Col xs={12} md={6}>
            <LinkTile
              testId="summary-transshipment"
              label="本年转运"
              value={d.yearTransshipmentCount}
              suffix="次"
              onOpen={link('inventoryReview')}
            />
          </Col>
        </Row>
      )}
    </Block>
  );
}

function CostBlock() {
  const f = useFigure<Cost>(`${BASE}/costInfo`);
  const d = f.data;
  const rows: [string, string, string][] = d
    ? [
        ['本年处置金额', formatMoney(d.disposalAmount, 3), '元'],
        ['本年处置量', tons(d.disposalQuantity), '吨'],
        ['平均处置单价', formatMoney(d.avgDisposalPrice, 3), '元/吨'],
        ['本年预付金额', formatMoney(d.prepaidAmount, 3), '元'],
        ['本年运费', formatMoney(d.freightAmount, 3), '元'],
        ['本年运输量', tons(d.transportWeight), '吨'],
        ['平均运费', formatMoney(d.avgFreightPerTon, 3), '元/吨'],
      ]
    : [];
  return (
    <Block
      title="费用信息"
      testId="dash-cost"
      computedAt={d?.refreshTime}
      loading={f.loading}
      error={f.error}
      ready={d !== null}
      onRefresh={() => f.reload()}
    >
      <Row gutter={[16, 16]}>
        {rows.map(([label, value, suffix]) => (
          <Col xs={12} md={8} xl={6} key={label}>
            <Tile label={label} value={value} suffix={suffix} />
          </Col>
        ))}
      </Row>
    </Block>
  );
}

interface Slice {
  name: string;
  value: number;
  onOpen?: () => void;
}

/** A pie with its legend: each slice's count, and a link to the companies behind it. */
function Pie({ slices, label }: { slices: Slice[]; label: string }) {
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
    [slices],
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

function ContractPieBlock() {
  const f = useFigure<ContractSummary>(`${BASE}/contractSummary`);
  const link = useNamedLink();
  const d = f.data;
  const slices = useMemo<Slice[]>(
    () =>
      d
        ? [
            { name: '已签约', value: d.haveContractCompanyCount, onOpen: link('companyMange', { haveYearCount: 1 }) },
            { name: '未签约', value: d.unContractCompanyCount, onOpen: link('companyMange', { haveYearCount: 0 }) },
          ]
        : [],
    [d, link],
  );
  return (
    <Block
      title="合同汇总"
      testId="dash-contract-pie"
      computedAt={d?.refreshTime}
      loading={f.loading}
      error={f.error}
      ready={d !== null}
      onRefresh={() => f.reload()}
    >
      {d && <Pie slices={slices} label={`产废企业合同情况：共${d.totalContractCompanyCount}家`} />}
    </Block>
  );
}

function ServerPieBlock() {
  const f = useFigure<ServerSummary>(`${BASE}/serverSummary`);
  const link = useNamedLink();
  const d = f.data;
  const slices = useMemo<Slice[]>(
    () =>
      d
        ? [
            { name: '已服务', value: d.haveServerCompanyCount, onOpen: link('companyMange', { haveServerCount: 1 }) },
            { name: '未服务', value: d.unServerCompanyCount, onOpen: link('companyMange', { haveServerCount: 0 }) },
          ]
        : [],
    [d, link],
  );
  return (
    <Block
      title="服务汇总"
      testId="dash-server-pie"
      computedAt={d?.refreshTime}
      loading={f.loading}
      error={f.error}
      ready={d !== null}
      onRefresh={() => f.reload()}
    >
      {d && <Pie slices={slices} label="产废企业本年服务情况" />}
    </Block>
  );
}

function ToDoBlock() {
  const f = useFigure<ToDo>(`${BASE}/toDoData`);
  const d = f.data;
  const items = d
    ? [
        { label: '未完成转运', value: d.unFinishTransshipmentCount },
        { label: '待确认服务', value: d.toDoServerCount },
        { label: '待修改服务', value: d.beUpdateServerCount },
        { label: '待审核入驻申请', value: d.beAuditPlanCount },
      ]
    : [];
  return (
    <Block
      title="待办事项"
      testId="dash-todo"
      computedAt={d?.refreshTime}
      loading={f.loading}
      error={f.error}
      ready={d !== null}
      onRefresh={() => f.reload()}
    >
      <List
        size="small"
        dataSource={items}
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
    </Block>
  );
}

/** The statistics shown as tiles with their progress against this year's target. */
const STATISTIC_TILES: { key: string; label: string; unit: string; money?: boolean }[] = [
  { key: 'allCompany', label: '产废企业', unit: '家' },
  { key: 'managementCompany', label: '处置企业', unit: '家' },
  { key: 'material', label: '收集企业', unit: '家' },
  { key: 'disposalOrder', label: '处置订单', unit: '单' },
  { key: 'contractAmount', label: '合同金额', unit: '元', money: true },
  { key: 'tradingVolume', label: '交易额', unit: '元', money: true },
  { key: 'paymentAmount', label: '支付金额', unit: '元', money: true },
];

function StatisticsBlock() {
  const f = useFigure<Statistics>(`${BASE}/statistics`);
  const d = f.data;
  return (
    <Block
      title={d ? `${d.year}年统计` : '统计'}
      testId="dash-statistics"
      computedAt={d?.refreshTime}
      loading={f.loading}
      error={f.error}
      ready={d !== null}
      onRefresh={() => f.reload()}
    >
      {d && (
        <Row gutter={[16, 16]}>
          {STATISTIC_TILES.map((s) => {
            const value = Number(d[s.key] ?? 0);
            const target = d[`${s.key}Target`];
            const progress = d[`${s.key}Progress`];
            return (
              <Col xs={12} md={8} xl={6} key={s.key} data-testid={`statistic-${s.key}`}>
                <Tile label={s.label} value={s.money ? formatMoney(value, 3) : value} suffix={s.unit} />
                {target === null || target === undefined ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    未设置年度目标
                  </Typography.Text>
                ) : (
                  <>
                    <Progress percent={Math.min(100, Number(progress ?? 0))} format={() => `${progress ?? 0}%`} size="small" />
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      目标 {s.money ? formatMoney(target, 3) : target} {s.unit}
                    </Typography.Text>
                  </>
                )}
              </Col>
            );
          })}
        </Row>
      )}
    </Block>
  );
}

/** The supervisory home: summary, cost, contract and service pies, to-do list and statistics. */
export function SupervisorHome() {
  return (
    <Row gutter={[16, 16]} data-testid="dashboard-supervisor">
      <Col span={24}>
        <SummaryBlock />
      </Col>
      <Col span={24}>
        <CostBlock />
      </Col>
      <Col xs={24} lg={8}>
        <ContractPieBlock />
      </Col>
      <Col xs={24} lg={8}>
        <ServerPieBlock />
      </Col>
      <Col xs={24} lg={8}>
        <ToDoBlock />
      </Col>
      <Col span={24}>
        <StatisticsBlock />
      </Col>
    </Row>
  );
}
