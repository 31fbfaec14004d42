import { Button, DatePicker, Input, InputNumber, Segmented, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { usePermission } from '../../access/access';
import { contractSource } from '../../app/rest-data';
import { type LogChange, logs } from '../../contract/logs';
import { listTableProps, useListCrud } from '../../engine';
import { timeTag } from './rules';
import type { LogRow } from './user-center-api';

const MINE = contractSource(logs, 'mine');
const ALL = contractSource(logs, 'all');

const ACTION: Readonly<Record<string, { text: string; color: string }>> = {
  insert: { text: '新增', color: 'green' },
  update: { text: '修改', color: 'blue' },
  delete: { text: '删除', color: 'red' },
};

/** A value of a changed field as the log shows it: 空 for none, text as it is, anything else as JSON. */
function shown(v: unknown): string {
  if (v === null || v === undefined || v === '') return '空';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The fields a change entry changed, each as 字段：前 → 后. */
function Changes({ changes }: { changes: LogChange[] }) {
  if (!changes.length) return null;
  return (
    <div data-log-changes>
      {changes.map((c) => (
        <div key={c.field} data-log-change={c.field}>
          <Typography.Text strong>{c.label ?? c.field}</Typography.Text>：{shown(c.before)} → {shown(c.after)}
        </div>
      ))}
    </div>
  );
}

interface Filters {
  companyId?: number | undefined;
  username?: string | undefined;
  table?: string | undefined;
  recordId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const defined = (f: Filters) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== ''));

/** The entries as a table: the call or change, its record and fields, where from and when. */
function Entries({ all, filters }: { all: boolean; filters: Filters }) {
  const fixed = useMemo(() => defined(filters), [filters]);
  const { list } = useListCrud<LogRow>(all ? ALL : MINE, { fixed });
  return (
    <Table<LogRow>
      {...listTableProps(list, { sizes: true, jumper: true })}
      size="small"
      locale={{ emptyText: list.error ? '操作日志加载失败' : '暂无操作日志' }}
      scroll={{ x: 1000 }}
      columns={[
        ...(all
          ? [
              { title: '用户', dataIndex: 'username', width: 110, ellipsis: true },
              { title: '企业', dataIndex: 'companyName', width: 140, ellipsis: true },
            ]
          : []),
        { title: '行为', dataIndex: 'description', width: 130, ellipsis: true },
        {
          title: '记录',
          key: 'record',
          width: 170,
          render: (_: unknown, r: LogRow) =>
            r.record ? (
              <span data-log-record={`${r.record.table}:${r.record.id ?? ''}`}>
                {r.action ? <Tag color={ACTION[r.action]?.color}>{ACTION[r.action]?.text}</Tag> : null}
                {r.record.title ?? r.record.table} #{r.record.id}
              </span>
            ) : null,
        },
        { title: '变更', key: 'changes', render: (_: unknown, r: LogRow) => <Changes changes={r.changes} /> },
        { title: 'IP', dataIndex: 'requestIp', width: 120, ellipsis: true },
        { title: '浏览器', dataIndex: 'browser', ellipsis: true, width: 120 },
        {
          title: '请求耗时',
          dataIndex: 'time',
          width: 90,
          align: 'center',
          render: (ms: number) => (
            <Tag color={timeTag(ms)} data-time-tag={timeTag(ms)}>
              {ms}ms
            </Tag>
          ),
        },
        { title: '创建日期', dataIndex: 'createTime', width: 160 },
      ]}
    />
  );
}

/**
 * Tab 操作日志: the signed-in user's own entries, paged, each change with its record and the fields it
 * changed. An account that manages users also reads the entries of the accounts its data scope reaches,
 * filtered by company, user, record and time.
 */
export function LogTable() {
  const can = usePermission();
  const manager = can('user:list');
  const [all, setAll] = useState(false);
  const [draft, setDraft] = useState<Filters>({});
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [filters, setFilters] = useState<Filters>({});
  const search = () =>
    setFilters({
      ...(all ? { companyId: draft.companyId, username: draft.username?.trim() } : {}),
      table: draft.table?.trim(),
      recordId: draft.recordId?.trim(),
      from: range?.[0]?.format('YYYY-MM-DD HH:mm:ss'),
      to: range?.[1]?.format('YYYY-MM-DD HH:mm:ss'),
    });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        {manager ? (
          <Segmented
            options={[
              { label: '我的日志', value: 'mine' },
              { label: '全部日志', value: 'all' },
            ]}
            value={all ? 'all' : 'mine'}
            onChange={(v) => {
              setAll(v === 'all');
              setFilters({});
              setDraft({});
              setRange(null);
            }}
          />
        ) : null}
        {all ? (
          <>
            <InputNumber
              placeholder="企业编号"
              min={1}
              value={draft.companyId ?? null}
              onChange={(v) => setDraft({ ...draft, companyId: v ?? undefined })}
            />
            <Input
              placeholder="用户名"
              allowClear
              style={{ width: 120 }}
              value={draft.username ?? ''}
              onChange={(e) => setDraft({ ...draft, username: e.target.value })}
            />
          </>
        ) : null}
        <Input
          placeholder="记录（视图名称或表名）"
          allowClear
          style={{ width: 180 }}
          value={draft.table ?? ''}
          onChange={(e) => setDraft({ ...draft, table: e.target.value })}
        />
        <Input
          placeholder="记录编号"
          allowClear
          style={{ width: 100 }}
          value={draft.recordId ?? ''}
          onChange={(e) => setDraft({ ...draft, recordId: e.target.value })}
        />
        <DatePicker.RangePicker showTime value={range} onChange={(v) => setRange(v)} placeholder={['开始时间', '结束时间']} />
        <Button type="primary" onClick={search}>
          搜索
        </Button>
      </Space>
      <Entries key={all ? 'all' : 'mine'} all={all} filters={filters} />
    </Space>
  );
}
