import { Button, Empty, Flex, List, Modal, Spin, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { bulletin } from '../../contract/bulletin';
import { messages } from '../../contract/messages';
import { SAFE_HTML_CLASS, safeHtml } from '../../engine/safe-html';
import { unreadStore } from '../../messages/unread-store';
import { LEAVE_MESSAGES_COMPONENT } from '../../model';
import { api } from '../../request';
import { useSession } from '../../session/session-store';
import { APP_PATHS } from '../../shared/app-paths';
import { htmlText, type LeaveMessage, leaveText, type SysMessage, senderLabel } from '../messages/messages-api';
import { FigureBlock, type FigureBlockProps } from './block';
import { pathOfComponent } from './named-routes';
import { useFigure } from './use-figure';

/** The carousel moves on one message every this many ms. */
export const CAROUSEL_INTERVAL_MS = 5000;
/** Messages visible at once in the carousel. */
const ROWS = 3;
const ROW_HEIGHT = 36;

/** The calls of the message blocks, with their parameters. */
export const SYSTEM_INFO_CALL = [messages.calls.sysPage, { haveRead: '0', page: 1, size: 5 }] as const;
export const LEAVE_MESSAGES_CALL = [messages.calls.leaveUnread, { page: 1, size: 3 }] as const;
export const BULLETINS_CALL = [bulletin.calls.list, { status: 10, page: 0, size: 5 }] as const;

interface Page<T> {
  content: T[];
  totalElements: number;
}

/**
 * A vertical carousel of rows: every `interval` ms the list moves up by one row, back to the top after
 * the last; it holds still while the pointer or the keyboard focus is on it, and when everything fits.
 */
function VerticalCarousel<T extends { id: number }>({
  items,
  render,
  interval,
}: {
  items: T[];
  render: (item: T) => React.ReactNode;
  interval: number;
}) {
  const [top, setTop] = useState(0);
  const [held, setHeld] = useState(false);
  const moving = items.length > ROWS;

  useEffect(() => {
    if (!moving || held) return;
    const timer = setInterval(() => setTop((t) => (t + 1) % (items.length - ROWS + 1)), interval);
    return () => clearInterval(timer);
  }, [moving, held, items.length, interval]);

  useEffect(() => {
    if (top > Math.max(0, items.length - ROWS)) setTop(0);
  }, [items.length, top]);

  return (
    <div
      className="wg-vertical-carousel"
      role="marquee"
      aria-label="未读系统消息"
      data-interval={interval}
      style={{ height: ROW_HEIGHT * Math.min(ROWS, items.length), overflow: 'hidden' }}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <div style={{ transform: `translateY(-${top * ROW_HEIGHT}px)`, transition: 'transform 0.5s ease' }}>
        {items.map((item) => (
          <div key={item.id} style={{ height: ROW_HEIGHT, display: 'flex', alignItems: 'center' }}>
            {render(item)}
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * 系统信息: the user's unread system messages in a vertical carousel. Opening one shows it in the
 * 系统通知 dialog (its HTML sanitised) and marks it read, and the badge follows.
 */
export function SystemInfoBlock() {
  const navigate = useNavigate();
  const list = useFigure<Page<SysMessage>>(...SYSTEM_INFO_CALL);
  const [open, setOpen] = useState<SysMessage | null>(null);
  const [reading, setReading] = useState(false);
  const { reload } = list;

  const show = useCallback(async (m: SysMessage) => {
    setOpen(m);
    setReading(true);
    try {
      const r = await api(messages.calls.sysReadOne, { query: { id: m.id } });
      setOpen(r.data);
      void unreadStore.refresh();
    } catch {
      // The request layer showed why; the message stays as the list had it.
    } finally {
      setReading(false);
    }
  }, []);

  const close = () => {
    setOpen(null);
    // What was read leaves the list of unread messages.
    reload(false);
  };

  return (
    <FigureBlock
      title="系统信息"
      testId="dash-system-info"
      figure={list}
      recompute={false}
      extra={
        <Button type="link" size="small" onClick={() => navigate(APP_PATHS.systemMessages)}>
          查看更多
        </Button>
      }
    >
      {({ content }) => (
        <>
          {content.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无未读系统消息" />
          ) : (
            <VerticalCarousel
              items={content}
              interval={CAROUSEL_INTERVAL_MS}
              render={(m) => (
                <Button type="link" className="wg-sys-message" onClick={() => void show(m)} style={{ padding: 0, width: '100%' }}>
                  <Flex justify="space-between" gap={8} style={{ width: '100%' }}>
                    <Typography.Text ellipsis style={{ color: 'inherit' }}>
                      {htmlText(m.title)}
                    </Typography.Text>
                    <Typography.Text type="secondary" style={{ flex: 'none' }}>
                      {m.time}
                    </Typography.Text>
                  </Flex>
                </Button>
              )}
            />
          )}
          <Modal title="系统通知" open={open !== null} width={850} footer={null} onCancel={close} destroyOnHidden>
            {open && (
              <Spin spinning={reading}>
                <Typography.Title level={5}>{htmlText(open.title)}</Typography.Title>
                <Typography.Text type="secondary">{open.createTime}</Typography.Text>
                <MessageHtml className="wg-sys-message-content" html={open.content} />
              </Spin>
            )}
          </Modal>
        </>
      )}
    </FigureBlock>
  );
}

/** A message's HTML, sanitised before it is shown. */
function MessageHtml({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={className ? `${className} ${SAFE_HTML_CLASS}` : SAFE_HTML_CLASS}
      style={{ marginTop: 12, maxHeight: '60vh', overflow: 'auto' }}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by safeHtml
      dangerouslySetInnerHTML={{ __html: safeHtml(html) }}
    />
  );
}

/**
 * A block listing the first page of a call, each item with its date on the right; its refresh only
 * asks again (a list is not a computed figure).
 */
function DatedListBlock<T extends { id: number }>({
  empty,
  time,
  render,
  ...block
}: Omit<FigureBlockProps<Page<T>>, 'children' | 'recompute'> & {
  empty: string;
  time: (item: T) => string;
  render: (item: T) => React.ReactNode;
}) {
  return (
    <FigureBlock {...block} recompute={false}>
      {({ content }) => <DatedList items={content} empty={empty} time={time} render={render} />}
    </FigureBlock>
  );
}

function DatedList<T extends { id: number }>({
  items,
  empty,
  time,
  render,
}: {
  items: T[];
  empty: string;
  time: (item: T) => string;
  render: (item: T) => React.ReactNode;
}) {
  return (
    <List
      size="small"
      dataSource={items}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
      renderItem={(item) => (
        <List.Item key={item.id}>
          <Flex justify="space-between" gap={8} style={{ width: '100%', minWidth: 0 }}>
            {render(item)}
            <Typography.Text type="secondary" style={{ flex: 'none' }}>
              {time(item)}
            </Typography.Text>
          </Flex>
        </List.Item>
      )}
    />
  );
}

/** 未读留言: the first three unread leave messages. */
export function LeaveMessagesBlock() {
  const navigate = useNavigate();
  const list = useFigure<Page<LeaveMessage>>(...LEAVE_MESSAGES_CALL);
  const inbox = pathOfComponent(useSession().menus, LEAVE_MESSAGES_COMPONENT);
  return (
    <DatedListBlock<LeaveMessage>
      title="未读留言"
      testId="dash-leave-messages"
      figure={list}
      extra={
        inbox && (
          <Button type="link" size="small" onClick={() => navigate(inbox)}>
            查看更多
          </Button>
        )
      }
      empty="暂无未读留言"
      time={(m) => m.createTime.slice(5, 16)}
      render={(m) => (
        <Typography.Text ellipsis={{ tooltip: leaveText(m) }} style={{ flex: 1, minWidth: 0 }}>
          <Typography.Text strong>{senderLabel(m)}：</Typography.Text>
          {leaveText(m)}
        </Typography.Text>
      )}
    />
  );
}

interface Bulletin {
  id: number;
  title: string;
  content: string;
  views: number;
  createTime: string;
}

/** 公告: the published bulletins (status 10); opening one counts a view. */
export function BulletinsBlock() {
  const list = useFigure<Page<Bulletin>>(...BULLETINS_CALL);
  const [open, setOpen] = useState<Bulletin | null>(null);
  const show = (b: Bulletin) => {
    setOpen(b);
    api(bulletin.calls.addView, { body: { id: b.id } }, { silent: true })
      .then((r) => setOpen((cur) => (cur && cur.id === b.id ? { ...cur, views: r.viewsNum } : cur)))
      .catch(() => {});
  };
  return (
    <>
      <DatedListBlock<Bulletin>
        title="公告"
        testId="dash-bulletins"
        figure={list}
        empty="暂无公告"
        time={(b) => b.createTime.slice(0, 10)}
        render={(b) => (
          <Button
            type="link"
            onClick={() => show(b)}
            style={{ padding: 0, height: 'auto', flex: 1, minWidth: 0, justifyContent: 'flex-start' }}
          >
            <Typography.Text ellipsis style={{ color: 'inherit' }}>
              {b.title}
            </Typography.Text>
          </Button>
        )}
      />
      <Modal title={open?.title} open={open !== null} width={850} footer={null} onCancel={() => setOpen(null)} destroyOnHidden>
        {open && (
          <>
            <Typography.Text type="secondary">
              {open.createTime} · 阅读 {open.views}
            </Typography.Text>
            <MessageHtml html={open.content} />
          </>
        )}
      </Modal>
    </>
  );
}
