import { Select } from 'antd';
import { useState } from 'react';
import { dashboard } from '../../contract/dashboard';
import { warehouses } from '../../contract/warehouses';
import { api, useLookup } from '../../request';
import { COST_DECIMALS } from '../../shared/format';
import { CountUp, FINANCE_COUNT_MS } from './count-up';
import { TileBlock, tileBlock, tons } from './tiles';

interface Warehouse {
  id: number;
  name: string;
}

/** A call that answers a page of warehouses: the company's own (all for supervisors), or those a carrier's orders load from. */
export type WarehousesCall = typeof warehouses.calls.list | typeof warehouses.calls.ofLogisticsOrders;

/**
 * The warehouse picker of a block: all warehouses when none is picked. The warehouses the user may
 * pick come from `from` (the inventory tiles: their company's, or all for supervisors) when it is
 * first opened: the first paint does not wait for them. A failed load is said by the request layer,
 * and the next opening tries again.
 */
export function WarehouseSelect({
  value,
  onChange,
  from = warehouses.calls.list,
}: {
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  from?: WarehousesCall;
}) {
  const [wanted, setWanted] = useState(false);
  const picks = useLookup(
    wanted ? from.path : null,
    async (signal): Promise<Warehouse[]> => (await api(from, {}, { signal })).content ?? [],
  );
  const load = () => {
    if (!wanted) setWanted(true);
    else if (picks.error && !picks.loading) picks.reload();
  };
  return (
    <Select<number>
      size="small"
      allowClear
      placeholder="全部仓库"
      aria-label="仓库"
      style={{ width: 160 }}
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      onOpenChange={(open) => open && load()}
      onFocus={load}
      loading={picks.loading}
      notFoundContent={picks.loading ? '加载中…' : '暂无仓库'}
      options={(picks.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
    />
  );
}

/** 库存: held, inquiring, in disposal and in stock, in tons; all warehouses or the one picked. */
export function InventoryBlock({ refresh }: { refresh: boolean }) {
  const [warehouseId, setWarehouseId] = useState<number | undefined>();
  return (
    <TileBlock
      title="库存信息"
      testId="dash-inventory"
      call={dashboard.calls.inventory}
      query={{ warehouseId }}
      refresh={refresh}
      extra={<WarehouseSelect value={warehouseId} onChange={setWarehouseId} />}
      tiles={(d) => [
        { testId: 'inventory-total', label: '库存总量', value: tons(d.inventoryTotal), suffix: '吨' },
        { testId: 'inventory-inquiring', label: '询价中', value: tons(d.inquiringNum), suffix: '吨' },
        { testId: 'inventory-disposal', label: '处置中', value: tons(d.disposalNum), suffix: '吨' },
        { testId: 'inventory-in', label: '在库', value: tons(d.inNum), suffix: '吨' },
      ]}
    />
  );
}

/** 订单: ongoing inquiries, disposal orders and logistics orders, and in red the contracts ending soon. */
export const OrdersBlock = tileBlock({
  title: '订单信息',
  testId: 'dash-orders',
  call: dashboard.calls.orders,
  tiles: (d) => [
    { testId: 'orders-inquiry', label: '进行中的处置询价', value: d.ongoingDisposalInquiry },
    { testId: 'orders-disposal', label: '进行中的处置订单', value: d.ongoingDisposalOrder },
    { testId: 'orders-logistics', label: '进行中的物流订单', value: d.ongoingLogisticsOrder },
    { testId: 'orders-count', label: d.countLabel, value: d.count, danger: true },
  ],
});

/** The finance tiles: each field with its label. */
const FINANCE = [
  { key: 'payable', label: '应付金额' },
  { key: 'yearPaid', label: '本年已付' },
  { key: 'receivable', label: '应收金额' },
  { key: 'yearReceived', label: '本年已收' },
] as const;

/** 财务: payable, paid this year, receivable, received this year; yuan, as cost figures (3 decimals), counting up. */
export const FinanceBlock = tileBlock({
  title: '财务信息',
  testId: 'dash-finance',
  call: dashboard.calls.finance,
  tiles: (d) =>
    FINANCE.map(({ key, label }) => ({
      testId: `finance-${key}`,
      label,
      valueRender: () => <CountUp value={d[key]} duration={FINANCE_COUNT_MS} decimals={COST_DECIMALS} />,
      suffix: '元',
    })),
});
