import { CheckOutlined, DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Radio, Space, Table, Tag } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useUnreadCount } from '../../messages/unread-store';
import { notify } from '../../notify/notifier';
import { MessageModal } from './message-modal';
import {
  badgeRead,
  badgeRefresh,
  deleteSysMessages,
  fetchSysMessages,
  htmlText,
  type ReadFilter,
  readAllSysMessages,
  readSysMessage,
  type SysMessage,
} from './messages-api';

/**
 * 系统消息: the user's system messages, unread first, paged (1-based) and filtered by read state.
 * Opening one shows it and marks it read; 全部已读 and 删除 (after a confirmation) act on the
 * server, and the top bar's badge follows at once.
 */
export function SystemMessagePage() {
  const [filter, setFilter] = useState<ReadFilter>('all');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [rows, setRows] = useState<SysMessage[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [open, setOpen] = useState<SysMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const unread = useUnreadCount();

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await fetchSysMessages(page, size, filter);
      // A page emptied by deletes or reads steps back to the last page that has rows.
      if (!r.content.length && page > 1 && r.totalElements > 0) {
        setPage(Math.max(1, Math.ceil(r.totalElements / size)));
        return;
      }
      setRows(r.content);
      setTotal(r.totalElements);
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [page, size, filter]);

  useEffect(() => {
    void load();
  }, [load]);

  // A notice arriving over the websocket raises the count: the list shows the new message too.
  const seen = useRef(unread);
  useEffect(() => {
    if (unread > seen.current) void load();
    seen.current = unread;
  }, [unread, load]);

  const openMessage = async (m: SysMessage) => {
    setOpen(m);
    try {
      const read = await readSysMessage(m.id);
      setOpen(read);
      if (!m.haveRead) {
        badgeRead();
        setRows((list) => list.map((r) => (r.id === m.id ? { ...r, haveRead: 1 } : r)));
      }
    } catch {
      setOpen(null);
      void load();
    }
  };

  const readAll = async () => {
    setBusy(true);
    try {
      const r = await readAllSysMessages();
      notify.success(r.message || '操作成功');
      badgeRefresh();
      await load();
    } catch {
      // The request layer has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  const remove = async (ids: number[]) => {
    if (!ids.length) return;
    const ok = await notify.confirm({
      title: '提示',
      content: ids.length === 1 ? '确定删除该消息吗？' : `确定删除选中的 ${ids.length} 条消息吗？`,
      okText: '确定',
      cancelText: '取消',
    });
    if (!ok) return;
    setBusy(true);
    try {
      const r = await deleteSysMessages(ids);
      notify.success(r.message || '删除成功');
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      badgeRefresh();
      await load();
    } catch {
      // The request layer has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div style={{ padding: 16 }}>
      {open && (
        <MessageModal
          title="系统通知"
          heading={open.title}
          meta={open.createTime || open.time}
          html={open.content}
          onClose={() => setOpen(null)}
        />
      )}
      <Card
        size="small"
        title={
          <Space>
            系统消息
            <Badge count={unread} overflowCount={99} />
          </Space>
        }
        extra={
          <Space wrap>
            <Radio.Group
              optionType="button"
              size="small"
              value={filter}
              onChange={(e) => {
                setFilter(e.target.value as ReadFilter);
                setPage(1);
                setSelected([]);
              }}
              options={[
                { value: 'all', label: '全部' },
                { value: '0', label: '未读' },
                { value: '1', label: '已读' },
              ]}
              aria-label="阅读状态"
            />
            <Button size="small" icon={<CheckOutlined />} onClick={() => void readAll()} loading={busy} disabled={!rows.length}>
              全部已读
            </Button>
            <Button size="small" danger icon={<DeleteOutlined />} onClick={() => void remove(selected)} disabled={!selected.length || busy}>
              删除
            </Button>
            <Button size="small" icon={<ReloadOutlined />} aria-label="刷新" onClick={() => void load()} />
          </Space>
        }
      >
        <Table<SysMessage>
          rowKey="id"
          size="small"
          loading={loading}
          dataSource={rows}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
          locale={{ emptyText: failed ? '系统消息加载失败' : '暂无系统消息' }}
          rowClassName={(m) => (m.haveRead ? 'wg-message-read' : 'wg-message-unread')}
          columns={[
            {
              title: '标题',
              dataIndex: 'title',
              render: (title: string, m) => (
                <Button
                  type="link"
                  style={{ padding: 0, fontWeight: m.haveRead ? 'normal' : 600, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
                  onClick={() => void openMessage(m)}
                >
                  {htmlText(title) || '（无标题）'}
                </Button>
              ),
            },
            {
              title: '状态',
              dataIndex: 'haveRead',
              width: 90,
              align: 'center',
              render: (r: number) => (r ? <Tag>已读</Tag> : <Tag color="red">未读</Tag>),
            },
            { title: '时间', dataIndex: 'createTime', width: 180 },
            {
              title: '操作',
              key: 'op',
              width: 130,
              render: (_, m) => (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => void openMessage(m)}>
                    查看
                  </Button>
                  <Button type="link" size="small" danger onClick={() => void remove([m.id])} disabled={busy}>
                    删除
                  </Button>
                </Space>
              ),
            },
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
      </Card>
    </div>
  );
}
