import { ReloadOutlined } from '@ant-design/icons';
import { Button, type ColProps, Flex, Spin, Typography } from 'antd';
import { type ComponentType, lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { dashboard } from '../../contract/dashboard';
import type { CallSpec } from '../../contract/define';
import { logistics } from '../../contract/logistics';
import { supervision } from '../../contract/supervision';
import { warehouses } from '../../contract/warehouses';
import { useSession } from '../../session/session-store';
import { BlockGrid, HALF, THIRD, WHOLE } from './block';
import { WarehousesBlock } from './collection-point';
import { FillingBlock } from './filling-entries';
import { FinanceBlock, InventoryBlock, OrdersBlock } from './full-dashboard';
import { DASHBOARD_TITLES, type DashboardKind, dashboardKind } from './home-kind';
import { ByWarehouseBlock, CapacityBlock, MonthlyBlock, OrderDashboardBlock } from './logistics-home';
import { figureQuery, prefetchFigure } from './prefetch';
import { BULLETINS_CALL, BulletinsBlock, LEAVE_MESSAGES_CALL, LeaveMessagesBlock, SYSTEM_INFO_CALL, SystemInfoBlock } from './system-info';
import { RefreshAll } from './use-figure';

// The supervisory home draws its pies with ECharts: its own chunk, loaded only for supervisors.
const SupervisorHome = lazy(() => import('./supervisor-home').then((m) => ({ default: m.SupervisorHome })));

/**
 * The calls of the home a user gets, as its blocks make them on first load: asked for as soon as the
 * login call has answered (see prefetch.ts), so the figures travel while the session loads.
 */
const FIRST_CALLS: Record<DashboardKind, readonly (readonly [CallSpec, Record<string, unknown>])[]> = {
  full: [
    [dashboard.calls.inventory, {}],
    [dashboard.calls.orders, {}],
    [dashboard.calls.finance, {}],
    BULLETINS_CALL,
    SYSTEM_INFO_CALL,
    LEAVE_MESSAGES_CALL,
  ],
  logistics: [
    [logistics.calls.dashboard, {}],
    [logistics.calls.capacity, {}],
    [logistics.calls.monthly, {}],
  ],
  collectionPoint: [
    [dashboard.calls.inventory, {}],
    [warehouses.calls.withStock, {}],
  ],
  supervisor: (['dataSummary', 'costInfo', 'contractSummary', 'serverSummary', 'toDoData', 'statistics'] as const).map(
    (n) => [supervision.calls[n], {}] as const,
  ),
};

/** Asks for the first figures of the user's home, right after signing in. */
export function prefetchHome(user: { deptCode?: string | null; permission?: string | null }): void {
  const kind = dashboardKind({ deptCode: user.deptCode ?? null, permission: user.permission ?? null });
  for (const [call, query] of FIRST_CALLS[kind]) prefetchFigure(call, figureQuery(query, false));
}

/**
 * The homes drawn from their blocks alone, each block with its width; a block given `refresh` has its
 * first load computed now.
 *   full: inventory, orders, finance, bulletins, system information, unread leave messages, the filling-system entries;
 *   logistics: order figures, capacity, the last 12 months, orders per warehouse;
 *   collectionPoint: its inventory and its warehouses.
 */
const HOMES: Record<Exclude<DashboardKind, 'supervisor'>, [ColProps, ComponentType<{ refresh: boolean }>][]> = {
  full: [
    [WHOLE, InventoryBlock],
    [WHOLE, OrdersBlock],
    [WHOLE, FinanceBlock],
    [THIRD, BulletinsBlock],
    [THIRD, SystemInfoBlock],
    [THIRD, LeaveMessagesBlock],
    [THIRD, FillingBlock],
  ],
  logistics: [
    [WHOLE, OrderDashboardBlock],
    [HALF, CapacityBlock],
    [HALF, MonthlyBlock],
    [WHOLE, ByWarehouseBlock],
  ],
  collectionPoint: [
    [WHOLE, InventoryBlock],
    [WHOLE, WarehousesBlock],
  ],
};

const TITLES = DASHBOARD_TITLES;

/**
 * /dashboard: the user's home. Every block loads on its own and shows when its figures were computed;
 * its refresh icon, and 全部刷新 for all of them, have the server compute them now (isRefresh=1), as
 * does opening the page with `?isRefresh=1`.
 */
export function DashboardPage() {
  const { info } = useSession();
  const [params] = useSearchParams();
  const [round, setRound] = useState(0);
  if (!info) return <Spin />;
  const kind = dashboardKind(info.user);
  const refresh = round > 0 || params.get('isRefresh') === '1';
  const key = `${kind}-${round}`;
  return (
    <Flex vertical gap={16} className="wg-dashboard" data-kind={kind}>
      <Flex justify="space-between" align="center">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {TITLES[kind]}
          {info.company && (
            <Typography.Text type="secondary" style={{ fontSize: 14, marginLeft: 12, fontWeight: 'normal' }}>
              {info.company.name}
            </Typography.Text>
          )}
        </Typography.Title>
        <Button icon={<ReloadOutlined />} onClick={() => setRound((r) => r + 1)}>
          全部刷新
        </Button>
      </Flex>
      {kind === 'supervisor' ? (
        <RefreshAll.Provider value={refresh}>
          <Suspense key={key} fallback={<Spin />}>
            <SupervisorHome />
          </Suspense>
        </RefreshAll.Provider>
      ) : (
        <BlockGrid
          key={key}
          testId={`dashboard-${kind === 'collectionPoint' ? 'collection-point' : kind}`}
          blocks={HOMES[kind].map(([col, Block]) => ({ col, block: <Block refresh={refresh} /> }))}
        />
      )}
    </Flex>
  );
}
