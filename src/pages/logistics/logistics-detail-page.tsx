import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Empty, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { type LogisticsLinkman, logistics, type OrderParty, type TransportInfo } from '../../contract/logistics';
import { findMenu } from '../../model';
import { pageTitles } from '../../navigation/page-titles';
import { api, RequestError } from '../../request';
import { useSession } from '../../session/session-store';
import { formatDate, formatMoney, formatWeight } from '../../shared/format';

/**
 * 物流详情 (`?id=` at the address of the menu whose component is logistics/detail): one logistics order, read only: its waybill and
 * status, its route and times, the disposal order it carries, the shipper, receiver and carrier with
 * their linkmen, and the vehicle with its driver and escort. Whoever may list logistics orders may
 * read it; the server decides which orders that is.
 */

const TITLE = '物流详情';
/** The route name of the logistics order list (the view's componentName), where a detail is chosen. */
const ORDER_LIST = 'logisticsOrder';

type State =
  | { status: 'loading' }
  | { status: 'failed'; code: number; message: string }
  | { status: 'ready'; linkman: LogisticsLinkman; transport: TransportInfo };

/** Order statuses as tags: 0 pending, 1 in transit, 2 finished, 3 cancelled, 4 rejected. */
const STATUS_COLOR: Record<string, string> = { '0': 'orange', '1': 'blue', '2': 'green', '3': 'default', '4': 'red' };

const text = (v: string | null | undefined) => (v === null || v === undefined ? '' : v.trim());
const show = (v: string | null | undefined) => text(v) || '-';
const tons = (v: number | null) => (v === null ? '' : `${formatWeight(v)} 吨`);
/** A time as its date and time to the minute: a waybill is read against documents, not as "N 分钟前". */
const when = (v: string | null, missing: string) => (v ? formatDate(v, 'YYYY-MM-DD HH:mm') || v : missing);

interface Item {
  key: string;
  label: string;
  children: string;
}

/** The items that hold a value: an unfilled field is left out instead of shown as a dash. */
const filled = (items: Item[]): Item[] => items.filter((i) => i.children.trim() !== '');

/** Descriptions of the filled items, or a quiet 未填写 when none is. */
function Facts({ items, column }: { items: Item[]; column: number | Record<string, number> }) {
  const shown = filled(items);
  if (!shown.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未填写" />;
  return <Descriptions size="small" column={column} items={shown} />;
}

/** A waste class by code and name (HW49 其他废物); the code alone when the dictionary does not name it. */
export function wasteCategoryText(order: { wasteCategory: string | null; wasteCategoryLabel?: string | null }): string | null {
  const code = order.wasteCategory;
  const label = order.wasteCategoryLabel;
  if (!label) return code;
  return code && !label.startsWith(code) ? `${code} ${label}` : label;
}

/** The order id of the address's query (`id`, or `rowId` as a list's row button passes it), or null. */
export function orderIdOf(search: string): number | null {
  const query = new URLSearchParams(search);
  const raw = query.get('id') ?? query.get('rowId');
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

function PartyCard({ title, party, extra }: { title: string; party: OrderParty; extra?: { label: string; value: string }[] }) {
  return (
    <Card size="small" title={title} className="logistics-party" data-party={title}>
      <Facts
        column={1}
        items={[
          { key: 'company', label: '企业名称', children: text(party.companyName) },
          { key: 'linkman', label: '联系人', children: text(party.linkman) },
          { key: 'phone', label: '联系电话', children: text(party.phone) },
          { key: 'region', label: '所在地区', children: text(party.regionFmt) },
          { key: 'address', label: '地址', children: text(party.address) },
          ...(extra ?? []).map((x) => ({ key: x.label, label: x.label, children: x.value })),
        ]}
      />
    </Card>
  );
}

export function LogisticsDetailPage() {
  const { pathname, search } = useLocation();
  const id = orderIdOf(search);
  const orderList = findMenu(useSession().menus, (m) => m.name === ORDER_LIST && !m.children?.length)?.path;
  const [state, setState] = useState<State>({ status: 'loading' });
  const [tick, setTick] = useState(0);

  useEffect(() => pageTitles.set(pathname, TITLE), [pathname]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tick is the reload signal
  useEffect(() => {
    if (id === null) return;
    let live = true;
    setState({ status: 'loading' });
    Promise.all([
      api(logistics.calls.linkman, { query: { id } }, { silent: true }),
      api(logistics.calls.transport, { query: { id } }, { silent: true }),
    ])
      .then(([linkman, transport]) => live && setState({ status: 'ready', linkman, transport }))
      .catch(
        (e: unknown) =>
          live &&
          setState({
            status: 'failed',
            code: e instanceof RequestError ? e.status : 0,
            message: e instanceof Error && e.message ? e.message : '接口请求失败',
          }),
      );
    return () => {
      live = false;
    };
  }, [id, tick]);

  const toList = orderList && (
    <Link to={orderList}>
      <Button type="primary">返回物流订单</Button>
    </Link>
  );
  if (id === null) return <Result status="info" title="请选择物流订单" subTitle="地址中没有物流订单编号（?id=）。" extra={toList} />;
  if (state.status === 'loading') return <Skeleton active paragraph={{ rows: 12 }} className="logistics-detail-loading" />;
  if (state.status === 'failed') {
    return (
      <Result
        status={state.code === 404 ? '404' : state.code === 403 ? '403' : 'error'}
        title={state.message}
        extra={
          <Space>
            {state.code !== 404 && state.code !== 403 && (
              <Button icon={<ReloadOutlined />} onClick={() => setTick((t) => t + 1)}>
                重试
              </Button>
            )}
            {toList}
          </Space>
        }
      />
    );
  }

  const { linkman, transport: t } = state;
  const v = t.vehicle;
  return (
    <div className="logistics-detail" data-order-id={t.id}>
      <Card
        title={
          <Space>
            <span>运单 {show(t.waybillNo)}</span>
            {t.orderStatusLabel && <Tag color={STATUS_COLOR[t.orderStatus ?? ''] ?? 'default'}>{t.orderStatusLabel}</Tag>}
          </Space>
        }
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => setTick((n) => n + 1)} aria-label="刷新">
            刷新
          </Button>
        }
        style={{ marginBottom: 16 }}
      >
        <Facts
          column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'weight', label: '运输重量', children: tons(t.weight) },
            { key: 'freight', label: '运费', children: t.freight === null ? '' : `${formatMoney(t.freight)} 元` },
            { key: 'from', label: '起运地区', children: text(t.fromRegionFmt) },
            { key: 'fromAddress', label: '起运地址', children: text(t.fromAddress) },
            { key: 'toAddress', label: '目的地址', children: text(t.toAddress) },
            { key: 'loadTime', label: '装货时间', children: when(t.loadTime, '未装货') },
            { key: 'arriveTime', label: '到达时间', children: when(t.arriveTime, '未到达') },
          ]}
        />
      </Card>

      <Card size="small" title="处置订单" style={{ marginBottom: 16 }}>
        {t.disposalOrder ? (
          <Facts
            column={{ xs: 1, md: 3 }}
            items={[
              { key: 'orderNo', label: '订单编号', children: text(t.disposalOrder.orderNo) },
              { key: 'waste', label: '危废类别', children: text(wasteCategoryText(t.disposalOrder)) },
              { key: 'quantity', label: '数量', children: tons(t.disposalOrder.quantity) },
            ]}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未关联处置订单" />
        )}
      </Card>

      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: 16, marginBottom: 16 }}>
        <PartyCard title="发货方" party={linkman.shipper} />
        <PartyCard title="收货方" party={linkman.receiver} />
        <PartyCard
          title="承运方"
          party={linkman.carrier}
          extra={[{ label: '承运经办人', value: [linkman.carrier.userName, linkman.carrier.userPhone].filter(Boolean).join(' ') }]}
        />
      </div>

      <Card size="small" title="车辆与人员">
        {v ? (
          <Facts
            column={{ xs: 1, md: 2, xl: 4 }}
            items={[
              { key: 'plate', label: '车牌号', children: text(v.plateNo) },
              { key: 'type', label: '车辆类型', children: text(v.vehicleTypeLabel) },
              { key: 'capacity', label: '核定载重', children: tons(v.loadCapacity) },
              { key: 'driver', label: '驾驶员', children: [text(v.driverName), text(v.driverPhone)].filter(Boolean).join(' ') },
              { key: 'escort', label: '押运员', children: [text(v.escortName), text(v.escortPhone)].filter(Boolean).join(' ') },
            ]}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未分配车辆" />
        )}
      </Card>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        本页为只读详情，如需修改请在物流订单列表中编辑。
      </Typography.Paragraph>
    </div>
  );
}
