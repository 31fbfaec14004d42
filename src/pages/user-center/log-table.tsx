import { Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { timeTag } from './rules';
import { fetchLogs, type LogRow } from './user-center-api';

/** Tab 操作日志: the signed-in user's own operation log, paged. */
export function LogTable() {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [rows, setRows] = useState<LogRow[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async (p: number, s: number) => {
    setLoading(true);
    try {
      const r = await fetchLogs(p, s);
      setRows(r.content);
      setTotal(r.totalElements);
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(page, size);
  }, [load, page, size]);

  return (
    <Table<LogRow>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={rows}
      locale={{ emptyText: failed ? '操作日志加载失败' : '暂无操作日志' }}
      scroll={{ x: 760 }}
      columns={[
        { title: '行为', dataIndex: 'description', ellipsis: true },
        { title: 'IP', dataIndex: 'requestIp', width: 130 },
        { title: 'IP来源', dataIndex: 'address', ellipsis: true, width: 140 },
        { title: '浏览器', dataIndex: 'browser', ellipsis: true, width: 140 },
        {
          title: '请求耗时',
          dataIndex: 'time',
          width: 100,
          align: 'center',
          render: (ms: number) => (
            <Tag color={timeTag(ms)} data-time-tag={timeTag(ms)}>
              {ms}ms
            </Tag>
          ),
        },
        { title: '创建日期', dataIndex: 'createTime', width: 170 },
      ]}
      pagination={{
        current: page,
        pageSize: size,
        total,
        showSizeChanger: true,
        showQuickJumper: true,
        showTotal: (n) => `共 ${n} 条`,
        onChange: (p, s) => {
          setPage(s === size ? p : 1);
          setSize(s);
        },
      }}
    />
  );
}
