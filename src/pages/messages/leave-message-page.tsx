import { EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Modal, Space, Table } from 'antd';
import { useState } from 'react';
import { messageSource } from '../../app/rest-data';
import { messages } from '../../contract/messages';
import { listTableProps, useListCrud } from '../../engine';
import { useReportedCall } from '../use-reported-call';
import { MessageModal } from './message-modal';
import { badgeRead, type LeaveMessage, leaveMessage, leaveText, readLeaveMessage, senderLabel, useUnreadReload } from './messages-api';

const SOURCE = messageSource(messages.calls.leaveUnread.path);

export const LEAVE_MAX = 1024;

/** 给管理员留言: the message goes to the administrator, who sees it arrive at once. */
function LeaveDialog({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<{ content: string }>();
  const [saving, report] = useReportedCall();
  const submit = ({ content }: { content: string }) =>
    report(() => leaveMessage(content.trim()), {
      done: '留言成功',
      failed: '留言失败',
      answered: onClose,
      refused: (text) => form.setFields([{ name: 'content', errors: [text] }]),
    });
  return (
    <Modal
      open
      title="给管理员留言"
      width={560}
      okText="发送"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={() => !saving && onClose()}
      mask={{ closable: false }}
    >
      <Form form={form} name="leave-message" layout="vertical" onFinish={(v) => void submit(v)} style={{ marginTop: 16 }}>
        <Form.Item label="留言内容" name="content" rules={[{ required: true, whitespace: true, message: '留言内容不能为空' }]}>
          <Input.TextArea rows={5} maxLength={LEAVE_MAX} showCount placeholder="请输入留言内容" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * 未读留言: the user's unread leave messages and the 留言管理 records addressed to its department, the
 * same rows as the dashboard's list and the websocket's notices. Opening one shows it and marks it read
 * (it leaves the list; a department's message leaves its colleagues' lists too).
 */
export function LeaveMessagePage() {
  const { list } = useListCrud<LeaveMessage>(SOURCE);
  const [open, setOpen] = useState<LeaveMessage | null>(null);
  const [writing, setWriting] = useState(false);
  const { reload } = list;
  const _unread = useUnreadReload(reload);

  const openMessage = async (m: LeaveMessage) => {
    setOpen(m);
    try {
      setOpen(await readLeaveMessage(m));
      badgeRead('leave');
    } catch {
      setOpen(null);
    }
  };

  const close = () => {
    setOpen(null);
    reload();
  };

  return (
    <div style={{ padding: 16 }}>
      {open && <MessageModal title="留言详情" meta={`${senderLabel(open)}　${open.createTime}`} text={leaveText(open)} onClose={close} />}
      {writing && <LeaveDialog onClose={() => setWriting(false)} />}
      <Card
        size="small"
        title="未读留言"
        extra={
          <Space>
            <Button size="small" type="primary" icon={<EditOutlined />} onClick={() => setWriting(true)}>
              给管理员留言
            </Button>
            <Button size="small" icon={<ReloadOutlined />} aria-label="刷新" onClick={reload} />
          </Space>
        }
      >
        <Table<LeaveMessage>
          {...listTableProps(list, { sizes: true })}
          size="small"
          locale={{ emptyText: list.error ? '留言加载失败' : '暂无未读留言' }}
          columns={[
            {
              title: '留言内容',
              dataIndex: 'content',
              // The list's key column: it wraps (a department's message leads with its title), up to 60 characters.
              render: (_: string, m) => {
                const text = leaveText(m);
                return (
                  <Button
                    type="link"
                    style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
                    title={text.length > 60 ? text : undefined}
                    onClick={() => void openMessage(m)}
                  >
                    {text.length > 60 ? `${text.slice(0, 60)}…` : text}
                  </Button>
                );
              },
            },
            { title: '留言人', dataIndex: 'senderName', width: 240, ellipsis: true, render: (_, m) => senderLabel(m) },
            { title: '留言时间', dataIndex: 'createTime', width: 180 },
            {
              title: '操作',
              key: 'op',
              width: 90,
              render: (_, m) => (
                <Button type="link" size="small" onClick={() => void openMessage(m)}>
                  查看
                </Button>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
