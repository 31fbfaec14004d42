import { Col, Row, Select, Statistic } from 'antd';
import { useCallback, useState } from 'react';
import { http } from '../../request';
import { formatMoney } from '../../shared/format';
import { Block } from './block';
import { CountUp, FINANCE_COUNT_MS } from './count-up';
import { FillingBlock } from './filling-entries';
import { BulletinsBlock, LeaveMessagesBlock, SystemInfoBlock } from './system-info';
import { useFigure } from './use-figure';

interface Inventory {
  inventoryTotal: number;
  inquiringNum: number;
  disposalNum: number;
  inNum: number;
  computedAt: string;
}

interface Orders {
  ongoingDisposalInquiry: number;
  ongoingDisposalOrder: number;
  ongoingLogisticsOrder: number;
  count: number;
  countLabel: string;
  computedAt: string;
}

interface Finance {
  payable: number;
  yearPaid: number;
  receivable: number;
  yearReceived: number;
  computedAt: string;
}

interface Warehouse {
  id: number;
  name: string;
}

/** Tons: 3 decimals with thousands separators. */
export const tons = (n: number) => formatMoney(n, 3);

export function Tile({
  label,
  value,
  suffix,
  danger,
  testId,
}: {
  label: string;
  value: string | number;
  suffix?: string;
  danger?: boolean;
  testId?: string;
}) {
  return (
    <div data-testid={testId} className="wg-dash-tile">
      <Statistic title={label} value={value} suffix={suffix} styles={{ content: danger ? { color: '#cf1322' } : undefined }} />
    </div>
  );
}

/**
 * The warehouses the user may pick for the inventory tiles (their company's, or all for supervisors),
 * loaded when the picker is first opened: the first paint does not wait for them.
 */
export function useWarehouses(): { list: Warehouse[]; loading: boolean; load: () => void } {
  const [list, setList] = useState<Warehouse[]>([]);
  const [state, setState] = useState<'idle' | 'loading' | 'done'>('idle');
  const load = useCallback(() => {
    if (state !== 'idle') return;
    setState('loading');
    http
      .get<{ content: Warehouse[] }>('/api/companyWarehouse/list')
      .then((r) => {
        setList(r.content ?? []);
        setState('done');
      })
      // The request layer said why; the next opening tries again.
      .catch(() => setState('idle'));
  }, [state]);
  return { list, loading: state === 'loading', load };
}

/** 库存: held, inquiring, in disposal and in stock, in tons; all warehouses or the one picked. */
export function InventoryBlock({ refresh }: { refresh: boolean }) {
  const warehouses = useWarehouses();
  const [warehouseId, setWarehouseId] = useState<number | undefined>();
  const inv = useFigure<Inventory>('/api/inventoryInfo', { warehouseId }, refresh);
  const d = inv.data;
  return (
    <Block
      title="库存信息"
      testId="dash-inventory"
      computedAt={d?.computedAt}
      loading={inv.loading}
      error={inv.error}
      ready={d !== null}
      onRefresh={() => inv.reload()}
      extra={
        <Select<number>
          size="small"
          allowClear
          placeholder="全部仓库"
          aria-label="仓库"
          style={{ width: 160 }}
          value={warehouseId}
          onChange={(v) => setWarehouseId(v ?? undefined)}
          onOpenChange={(open) => open && warehouses.load()}
          onFocus={warehouses.load}
          loading={warehouses.loading}
          notFoundContent={warehouses.loading ? '加载中…' : '暂无仓库'}
          options={warehouses.list.map((w) => ({ value: w.id, label: w.name }))}
        />
      }
    >
      {d && (
        <Row gutter={[16, 16]}>
          <Col xs={12} md={6}>
            <Tile testId="inventory-total" label="库存总量" value={tons(d.inventoryTotal)} suffix="吨" />
          </Col>
          <Col xs={12} md={6}>
            <Tile testId="inventory-inquiring" label="询价中" value={tons(d.inquiringNum)} suffix="吨" />
          </Col>
          <Col xs={12} md={6}>
            <Tile testId="inventory-disposal" label="处置中" value={tons(d.disposalNum)} suffix="吨" />
          </Col>
          <Col xs={12} md={6}>
            <Tile testId="inventory-in" label="在库" value={tons(d.inNum)} suffix="吨" />
          </Col>
        </Row>
      )}
    </Block>
  );
}

/** 订单: ongoing inquiries, disposal orders and logistics orders, and in red the contracts ending soon. */
function OrdersBlock({ refresh }: { refresh: boolean }) {
  const o = useFigure<Orders>('/api/produceOrderDashboard', {}, refresh);
  const d = o.data;
  return (
    <Block
      title="订单信息"
      testId="dash-orders"
      computedAt={d?.computedAt}
      loading={o.loading}
      error={o.error}
      ready={d !== null}
      onRefresh={() => o.reload()}
    >
      {d && (
        <Row gutter={[16, 16]}>
          <Col xs={12} md={6}>
            <Tile testId="orders-inquiry" label="进行中的处置询价" value={d.ongoingDisposalInquiry} />
          </Col>
          <Col xs={12} md={6}>
            <Tile testId="orders-disposal" label="进行中的处置订单" value={d.ongoingDisposalOrder} />
          </Col>
          <Col xs={12} md={6}>
            <Tile testId="orders-logistics" label="进行中的物流订单" value={d.ongoingLogisticsOrder} />
          </Col>
          <Col xs={12} md={6}>
            <Tile testId="orders-count" label={d.countLabel} value={d.count} danger />
          </Col>
        </Row>
      )}
    </Block>
  );
}

const FINANCE = [
  { key: 'payable', label: '应付金额' },
  { key: 'yearPaid', label: '本年已付' },
  { key: 'receivable', label: '应收金额' },
  { key: 'yearReceived', label: '本年已收' },
] as const;

/** 财务: payable, paid this year, receivable, received this year; yuan, 3 decimals, counting up. */
function FinanceBlock({ refresh }: { refresh: boolean }) {
  const f = useFigure<Finance>('/api/finAcc/dashboard', {}, refresh);
  const d = f.data;
  return (
    <Block
      title="财务信息"
      testId="dash-finance"
      computedAt={d?.computedAt}
      loading={f.loading}
      error={f.error}
      ready={d !== null}
      onRefresh={() => f.reload()}
    >
      {d && (
        <Row gutter={[16, 16]}>
          {FINANCE.map((x) => (
            <Col xs={12} md={6} key={x.key}>
              <div data-testid={`finance-${x.key}`} className="wg-dash-tile">
                <Statistic
                  title={x.label}
                  valueRender={() => <CountUp value={d[x.key]} duration={FINANCE_COUNT_MS} decimals={3} />}
                  suffix="元"
                />
              </div>
            </Col>
          ))}
        </Row>
      )}
    </Block>
  );
}

/**
 * The company dashboard: inventory, orders, finance, bulletins, system information, unread leave
 * messages and the filling-system entries. `refresh` has the first load computed now.
 */
export function FullDashboard({ refresh }: { refresh: boolean }) {
  return (
    <Row gutter={[16, 16]} data-testid="dashboard-full">
      <Col span={24}>
        <InventoryBlock refresh={refresh} />
      </Col>
      <Col span={24}>
        <OrdersBlock refresh={refresh} />
      </Col>
      <Col span={24}>
        <FinanceBlock refresh={refresh} />
      </Col>
      <Col xs={24} lg={8}>
        <BulletinsBlock />
      </Col>
      <Col xs={24} lg={8}>
        <SystemInfoBlock />
      </Col>
      <Col xs={24} lg={8}>
        <LeaveMessagesBlock />
      </Col>
      <Col xs={24} lg={8}>
        <FillingBlock />
      </Col>
    </Row>
  );
}
