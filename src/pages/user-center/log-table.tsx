import { Table, Tag } from 'antd';
import { contractSource } from '../../app/rest-data';
import { logs } from '../../contract/logs';
import { listTableProps, useListCrud } from '../../engine';
import { timeTag } from './rules';
import type { LogRow } from './user-center-api';

const SOURCE = contractSource(logs, 'mine');

/** Tab 操作日志: the signed-in user's own operation log, paged. */
export function LogTable() {
  const { list } = useListCrud<LogRow>(SOURCE);
  return (
    <Table<LogRow>
      {...listTableProps(list, { sizes: true, jumper: true })}
      size="small"
      locale={{ emptyText: list.error ? '操作日志加载失败' : '暂无操作日志' }}
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
    />
  );
}
