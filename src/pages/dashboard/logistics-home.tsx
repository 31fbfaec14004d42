import { Col, Empty, Row, Table, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { logistics, type WarehouseOrder } from '../../contract/logistics';
import { warehouses } from '../../contract/warehouses';
import { tablePager } from '../../engine';
import { formatMoney, formatWeight } from '../../shared/format';
import { ORDER_STATUS, statusName, VEHICLE_STATUS } from '../../shared/statuses';
import { Block, FigureBlock } from './block';
import { CAPACITY_COUNT_MS, CountUp } from './count-up';
import { WarehouseSelect } from './full-dashboard';
import { Tile, tileBlock, tons } from './tiles';
import { useFigure } from './use-figure';

const EChart = lazy(() => import('./echart').then((m) => ({ default: m.EChart })));

/** A field of an order's record as a cell: its text, or a dash when it has none. */
const cell = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));

/** An order state's name (orderStatus), as the lists and the detail call it. */
const order = (key: keyof typeof ORDER_STATUS.codes) => statusName(ORDER_STATUS, key);

/** 物流订单: the carrier's orders by state, the weight under way, this month's orders and this year's freight. */
export const OrderDashboardBlock = tileBlock({
  title: '物流订单',
  testId: 'dash-logistics-orders',
  call: logistics.calls.dashboard,
  col: { xs: 12, md: 8, xl: 4 },
  tiles: (d) => [
    { label: '订单总数', value: d.total },
    { label: order('pending'), value: d.pending },
    { label: order('ongoing'), value: d.inTransit },
    { label: order('finished'), value: d.finished },
    { label: order('cancelled'), value: d.cancelled },
    { label: order('rejected'), value: d.rejected },
    { label: '在途重量', value: tons(d.ongoingWeight), suffix: '吨' },
    { label: '本月订单', value: d.monthCount },
    { label: '本年运费', value: formatMoney(d.yearFreight), suffix: '元' },
  ],
});

/** 近12个月: orders and weight per month. */
export function MonthlyBlock({ refresh }: { refresh: boolean }) {
  const f = useFigure(logistics.calls.monthly, {}, refresh);
  const d = f.data;
  const option = useMemo(
    () =>
      d && {
        legend: { top: 0 },
        grid: { left: 48, right: 48, top: 36, bottom: 28 },
        xAxis: { type: 'category', data: d.months },
        yAxis: [
          { type: 'value', name: '订单数', minInterval: 1 },
          { type: 'value', name: '重量（吨）' },
        ],
        series: [
          { type: 'bar', name: '订单数', data: d.counts },
          { type: 'line', name: '重量（吨）', yAxisIndex: 1, data: d.weights },
        ],
      },
    [d],
  );
  return (
    <FigureBlock title="近12个月物流订单" testId="dash-logistics-monthly" figure={f} computedAt={d?.computedAt}>
      {() =>
        option && (
          <Suspense fallback={<div style={{ height: 240 }} />}>
            <EChart option={option} label="近12个月物流订单数与重量" />
          </Suspense>
        )
      }
    </FigureBlock>
  );
}

/** 运力: capacity combinations and idle capacity, counting up over 3.6 s. */
export function CapacityBlock({ refresh }: { refresh: boolean }) {
  const f = useFigure(logistics.calls.capacity, {}, refresh);
  return (
    <FigureBlock title="运力信息" testId="dash-capacity" figure={f} computedAt={f.data?.computedAt}>
      {(d) => (
        <Row gutter={[16, 16]}>
          <Col xs={12} md={8}>
            <div data-testid="capacity-existing">
              <Typography.Text type="secondary">现有运力组合</Typography.Text>
              <div style={{ fontSize: 28 }}>
                <CountUp value={d.existingCount} duration={CAPACITY_COUNT_MS} />
              </div>
            </div>
          </Col>
          <Col xs={12} md={8}>
            <div data-testid="capacity-idle">
              <Typography.Text type="secondary">空闲运力</Typography.Text>
              <div style={{ fontSize: 28, color: '#3f8600' }}>
                <CountUp value={d.idleCount} duration={CAPACITY_COUNT_MS} />
              </div>
            </div>
          </Col>
          <Col xs={12} md={8}>
            <Tile
              label={`${statusName(VEHICLE_STATUS, 'onRoad')} / ${statusName(VEHICLE_STATUS, 'repair')}`}
              value={`${d.inTransitCount} / ${d.repairCount}`}
            />
          </Col>
          <Col xs={12} md={8}>
            <Tile label="总载重" value={tons(d.loadCapacity)} suffix="吨" />
          </Col>
          <Col xs={12} md={8}>
            <Tile label="空闲载重" value={tons(d.idleLoadCapacity)} suffix="吨" />
          </Col>
        </Row>
      )}
    </FigureBlock>
  );
}

const PAGE_SIZE = 10;

/** Orders per warehouse: the newest logistics orders, of one warehouse when one is picked. */
export function ByWarehouseBlock() {
  const [warehouseId, setWarehouseId] = useState<number | undefined>();
  const [page, setPage] = useState(1);
  const f = useFigure(logistics.calls.byWarehouse, {
    warehouseId,
    page: page - 1,
    size: PAGE_SIZE,
  });
  return (
    <Block
      title="仓库物流订单"
      testId="dash-by-warehouse"
      loading={f.loading}
      error={f.error}
      ready={f.data !== null}
      onRefresh={() => f.reload(false)}
      extra={
        <WarehouseSelect
          // A carrier owns no warehouse: it picks among those its orders load from.
          from={warehouses.calls.ofLogisticsOrders}
          value={warehouseId}
          onChange={(id) => {
            setWarehouseId(id);
            setPage(1);
          }}
        />
      }
    >
      <Table<WarehouseOrder>
        size="small"
        rowKey="id"
        loading={f.loading}
        dataSource={f.data?.content ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无物流订单" /> }}
        pagination={tablePager({ page, size: PAGE_SIZE, total: f.data?.totalElements ?? 0, onChange: setPage })}
        columns={[
          { title: '运单号', dataIndex: 'waybillNo', render: (v: unknown, r) => cell(v ?? r.orderNo) },
          { title: '产废单位', dataIndex: 'producerName', render: cell },
          { title: '处置单位', dataIndex: 'disposerName', render: cell },
          { title: '仓库', dataIndex: 'warehouseName', render: cell },
          { title: '重量（吨）', dataIndex: 'weight', render: (v: unknown) => (v === null || v === undefined ? '-' : formatWeight(v)) },
          { title: '装车时间', dataIndex: 'loadTime', render: cell },
        ]}
      />
    </Block>
  );
}
