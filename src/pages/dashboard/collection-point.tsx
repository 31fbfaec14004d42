import { Empty, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { warehouses } from '../../contract/warehouses';
import { UNPAGED } from '../../engine';
import { FigureBlock } from './block';
import { tons } from './tiles';
import { useFigure } from './use-figure';

interface WarehouseItem {
  id: number;
  name: string;
  regionFmt: string | null;
  address: string | null;
  linkmanName: string | null;
  phone: string | null;
  inventory: number;
  inNum: number;
  count: number;
}

interface InventoryLine {
  category: string;
  name: string;
  quantity: number;
  inNum: number;
  count: number;
  maxQuantity: number | null;
  overLimit: boolean;
}

/** One warehouse's held waste per category, against its limits. */
function WarehouseInventory({ warehouseId }: { warehouseId: number }) {
  const f = useFigure<{ content: InventoryLine[]; total: number; computedAt: string }>(warehouses.calls.inventory, { warehouseId });
  if (f.error) return <Typography.Text type="danger">{f.error}</Typography.Text>;
  return (
    <Table<InventoryLine>
      size="small"
      rowKey="category"
      loading={f.loading}
      {...UNPAGED}
      dataSource={f.data?.content ?? []}
      locale={{ emptyText: '该仓库暂无库存' }}
      columns={[
        { title: '危废类别', dataIndex: 'name' },
        { title: '库存（吨）', dataIndex: 'quantity', render: (v: number) => tons(v) },
        { title: '在库（吨）', dataIndex: 'inNum', render: (v: number) => tons(v) },
        { title: '上限（吨）', dataIndex: 'maxQuantity', render: (v: number | null) => (v === null ? '未设置' : tons(v)) },
        {
          title: '状态',
          dataIndex: 'overLimit',
          render: (over: boolean) => (over ? <Tag color="error">超出上限</Tag> : <Tag color="success">正常</Tag>),
        },
      ]}
    />
  );
}

/** 收集点仓库: the collection point's warehouses with what each holds; a row opens its categories. */
export function WarehousesBlock({ refresh }: { refresh: boolean }) {
  const f = useFigure<{ content: WarehouseItem[]; computedAt: string }>(warehouses.calls.withStock, {}, refresh);
  const [expanded, setExpanded] = useState<readonly React.Key[]>([]);
  return (
    <FigureBlock title="收集点仓库" testId="dash-warehouses" figure={f} computedAt={f.data?.computedAt}>
      {(d) => (
        <Table<WarehouseItem>
          size="small"
          rowKey="id"
          {...UNPAGED}
          dataSource={d.content}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无仓库" /> }}
          expandable={{
            expandedRowKeys: expanded,
            onExpandedRowsChange: (keys) => setExpanded(keys),
            expandedRowRender: (w) => <WarehouseInventory warehouseId={w.id} />,
          }}
          columns={[
            { title: '仓库', dataIndex: 'name' },
            { title: '地区', dataIndex: 'regionFmt', render: (v) => v ?? '-' },
            { title: '联系人', dataIndex: 'linkmanName', render: (v, r) => (v ? `${v}${r.phone ? ` ${r.phone}` : ''}` : '-') },
            { title: '库存（吨）', dataIndex: 'inventory', render: (v: number) => tons(v) },
            { title: '在库（吨）', dataIndex: 'inNum', render: (v: number) => tons(v) },
            { title: '入库单数', dataIndex: 'count' },
          ]}
        />
      )}
    </FigureBlock>
  );
}
