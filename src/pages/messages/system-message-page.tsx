import { CheckOutlined, DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Radio, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { messageSource } from '../../app/rest-data';
import { messages } from '../../contract/messages';
import { listTableProps, useListCrud } from '../../engine';
import { notify } from '../../notify/notifier';
import { MessageModal } from './message-modal';
import {
  badgeRead,
  badgeRefresh,
  htmlText,
  type ReadFilter,
  readAllSysMessages,
  readSysMessage,
  type SysMessage,
  useUnreadReload,
} from './messages-api';

const SOURCE = messageSource(messages.calls.sysPage.path, { url: messages.calls.sysDelete.path, method: 'get' });
const CRUD = {
  texts: {
    confirmDelete: (rows: readonly unknown[]) => (rows.length === 1 ? '确定删除该消息吗？' : `确定删除选中的 ${rows.length} 条消息吗？`),
  },
};

/**
 * 系统消息: the user's system messages, unread first, paged and filtered by read state. Opening one
 * shows it and marks it read; 全部已读 and 删除 (after a confirmation) act on the server, and the top
 * bar's badge follows at once.
 */
export function SystemMessagePage() {
  const [filter, setFilter] = useState<ReadFilter>('all');
  const { list, crud } = useListCrud<SysMessage>(SOURCE, undefined, CRUD);
  const [readNow, setReadNow] = useState<ReadonlySet<number>>(() => new Set());
  const [open, setOpen] = useState<SysMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const { reload } = list;
  const unread = useUnreadReload(reload);
  const isRead = (m: SysMessage) => !!m.haveRead || readNow.has(m.id);

  const openMessage = async (m: SysMessage) => {
    setOpen(m);
    try {
      setOpen(await readSysMessage(m.id));
      if (!isRead(m)) {
        badgeRead('sys');
        setReadNow((ids) => new Set(ids).add(m.id));
      }
    } catch {
      setOpen(null);
      reload();
    }
  };

  const readAll = async () => {
    setBusy(true);
    try {
      const r = await readAllSysMessages();
      notify.success(r.message || '操作成功');
      badgeRefresh();
      reload();
    } catch {
      // The request layer has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  const remove = async (rows: SysMessage[]) => {
    if (await crud.remove(rows)) badgeRefresh();
  };
  const working = busy || crud.deleting;

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
                const next = e.target.value as ReadFilter;
                setFilter(next);
                list.search({ haveRead: next === 'all' ? undefined : next });
              }}
              options={[
                { value: 'all', label: '全部' },
                { value: '0', label: '未读' },
                { value: '1', label: '已读' },
              ]}
              aria-label="阅读状态"
            />
            <Button size="small" icon={<CheckOutlined />} onClick={() => void readAll()} loading={working} disabled={!list.rows.length}>
              全部已读
            </Button>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => void remove(list.selected.rows)}
              disabled={!list.selected.rows.length || working}
            >
              删除
            </Button>
            <Button size="small" icon={<ReloadOutlined />} aria-label="刷新" onClick={reload} />
          </Space>
        }
      >
        <Table<SysMessage>
          {...listTableProps(list, { selectable: true, sizes: true, jumper: true })}
          size="small"
          locale={{ emptyText: list.error ? '系统消息加载失败' : '暂无系统消息' }}
          rowClassName={(m) => (isRead(m) ? 'wg-message-read' : 'wg-message-unread')}
          columns={[
            {
              title: '标题',
              dataIndex: 'title',
              render: (title: string, m) => (
                <Button
                  type="link"
                  style={{ padding: 0, fontWeight: isRead(m) ? 'normal' : 600, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
                  onClick={() => void openMessage(m)}
                >
                  {htmlText(title) || '（无标题）'}
                </Button>
              ),
            },
            {
              title: '状态',
              key: 'haveRead',
              width: 90,
              align: 'center',
              render: (_, m) => (isRead(m) ? <Tag>已读</Tag> : <Tag color="red">未读</Tag>),
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
                  <Button type="link" size="small" danger onClick={() => void remove([m])} disabled={working}>
                    删除
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
