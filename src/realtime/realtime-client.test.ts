import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MESSAGE, RealtimeClient, realtimeUrl, type SocketLike, WEBSOCKET_ERROR_MESSAGE, WS_PENDING } from './realtime-client';
import { realtimeHandlers } from './use-realtime';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closedWith: number | undefined;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  onclose: SocketLike['onclose'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close(code = 1005) {
    this.readyState = 3;
    this.closedWith = code;
  }
  // What the server does:
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
  serverClose(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  fail() {
    this.onerror?.({});
    this.readyState = 3;
    this.onclose?.({ code: 1006 });
  }
}

function setup(url: () => string | null = () => 'ws://host/websocket/producer?token=t') {
  const sockets: FakeSocket[] = [];
  const notifier = { success: vi.fn(), error: vi.fn() };
  const unread = { setTotal: vi.fn(), increment: vi.fn(), refresh: vi.fn(async () => {}) };
  const client = new RealtimeClient({
    url,
    handlers: realtimeHandlers(notifier, unread),
    createSocket: (u) => {
      const s = new FakeSocket(u);
      sockets.push(s);
      return s;
    },
  });
  const last = () => sockets[sockets.length - 1] as FakeSocket;
  return { client, sockets, last, notifier, unread };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('realtime client', () => {
  it('builds a ws:// or wss:// address matching the page, without the Bearer prefix', () => {
    expect(realtimeUrl({ protocol: 'http:', host: '10.0.0.5:8080' }, '张三', 'Bearer a.b.c')).toBe(
      `ws://10.0.0.5:8080/websocket/${encodeURIComponent('张三')}?token=a.b.c`,
    );
    expect(realtimeUrl({ protocol: 'https:', host: 'waste.example' }, 'producer', 'a.b.c')).toBe(
      'wss://waste.example/websocket/producer?token=a.b.c',
    );
  });

  it('shows a notice as a success toast, bumps the badge and refreshes the count; unreadNum sets it', () => {
    const { client, last, notifier, unread } = setup();
    client.start();
    last().open();
    last().receive({ sender: 'system', reception: 'producer', body: { unreadNum: 3 }, flag: 'unread' });
    expect(unread.setTotal).toHaveBeenCalledWith(3);
    last().receive({ sender: 'system', reception: 'producer', body: { noticeInfo: '危废入库提醒' }, flag: 'sysMessage' });
    expect(notifier.success).toHaveBeenCalledWith('危废入库提醒');
    expect(unread.increment).toHaveBeenCalledTimes(1);
    expect(unread.refresh).toHaveBeenCalledTimes(1);
    // Pongs and junk change nothing.
    last().receive({ type: 'pong' });
    last().receive('not json');
    last().receive({ body: null });
    expect(notifier.success).toHaveBeenCalledTimes(1);
    expect(unread.setTotal).toHaveBeenCalledTimes(1);
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('reconnects 4 s after the server closes the connection', () => {
    const { client, sockets, last } = setup();
    client.start();
    last().open();
    last().serverClose(1001);
    vi.advanceTimersByTime(3999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    expect(last().url).toBe('ws://host/websocket/producer?token=t');
  });

  it('shows websocket数据传输发生错误 on an error (once per outage) and reconnects 4 s later', () => {
    const { client, sockets, last, notifier } = setup();
    client.start();
    last().open();
    last().fail();
    expect(notifier.error).toHaveBeenCalledWith(WEBSOCKET_ERROR_MESSAGE);
    vi.advanceTimersByTime(4000);
    expect(sockets).toHaveLength(2);
    // Still down: a new attempt every 4 s, but not a toast every 4 s.
    last().fail();
    vi.advanceTimersByTime(4000);
    expect(sockets).toHaveLength(3);
    expect(notifier.error).toHaveBeenCalledTimes(1);
    // Back up, then down again: tell the user again.
    last().open();
    last().fail();
    expect(notifier.error).toHaveBeenCalledTimes(2);
  });

  it('sends a heartbeat after 180 s without traffic; any message restarts the countdown', () => {
    const { client, last } = setup();
    client.start();
    last().open();
    vi.advanceTimersByTime(179_000);
    last().receive({ body: { unreadNum: 0 }, flag: 'unread' });
    vi.advanceTimersByTime(179_000);
    expect(last().sent).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(last().sent).toEqual([HEARTBEAT_MESSAGE]);
    expect(JSON.parse(HEARTBEAT_MESSAGE)).toEqual({ type: 'heartbeat' });
    last().receive({ type: 'pong' });
    vi.advanceTimersByTime(180_000);
    expect(last().sent).toHaveLength(2);
  });

  it('drops a connection whose heartbeat goes unanswered and opens a new one', () => {
    const { client, sockets, last } = setup();
    client.start();
    const first = last();
    first.open();
    vi.advanceTimersByTime(180_000 + 10_000);
    expect(first.readyState).toBe(3);
    vi.advanceTimersByTime(4000);
    expect(sockets).toHaveLength(2);
  });

  it('stops for good on close code 4401 (unauthorized)', () => {
    const { client, sockets, last, notifier } = setup();
    client.start();
    last().serverClose(4401);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(client.stoppedBecause).toBe('unauthorized');
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('stops on close code 4403 (the account must first resolve its state), without retrying', () => {
    const { client, sockets, last, notifier } = setup();
    client.start();
    last().open();
    last().serverClose(WS_PENDING);
    vi.advanceTimersByTime(60_000);
    expect(WS_PENDING).toBe(4403);
    expect(sockets).toHaveLength(1);
    expect(client.stoppedBecause).toBe('pending');
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('does not reconnect after an intentional close, even with a reconnect pending', () => {
    const { client, sockets, last } = setup();
    client.start();
    last().open();
    client.close();
    expect(last().closedWith).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);

    const again = setup();
    again.client.start();
    again.last().serverClose(1006);
    again.client.close();
    vi.advanceTimersByTime(60_000);
    expect(again.sockets).toHaveLength(1);
  });

  it('stops when there is no token left to connect with (logged out)', () => {
    let token: string | null = 't';
    const { client, sockets, last } = setup(() => (token ? `ws://host/websocket/producer?token=${token}` : null));
    client.start();
    last().open();
    token = null;
    last().serverClose(1001);
    vi.advanceTimersByTime(4000);
    expect(sockets).toHaveLength(1);
    expect(client.stoppedBecause).toBe('no-address');
  });
});
