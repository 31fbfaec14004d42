/** The message calls of the system-message and leave-message pages. */

import { useEffect, useRef } from 'react';
import { messages } from '../../contract/messages';
import { safeHtml } from '../../engine/safe-html';
import { type UnreadKind, unreadStore, useUnreadCount } from '../../messages/unread-store';
import { api } from '../../request';

export interface SysMessage {
  id: number;
  title: string;
  time: string;
  content: string;
  createTime: string;
  haveRead: number;
}

export interface LeaveMessage {
  id: number;
  content: string;
  createTime: string;
  senderName: string;
  senderUsername?: string | null;
  senderCompany?: string | null;
  /** The 留言管理 view of a message addressed to the user's department; absent for one left for the user. */
  viewId?: number | null;
  /** A department message's 留言标题. */
  title?: string | null;
}

/** A leave message's text as lists show it: a department message's title first (【标题】内容). */
export function leaveText(m: Pick<LeaveMessage, 'title' | 'content'>): string {
  return m.title ? `【${m.title}】${m.content}` : m.content;
}

/**
 * Who left a message, as its reader should judge it: the name it was signed with, then the sending
 * account and its company, which the sender does not choose (张三（producer · 某某环保）).
 */
export function senderLabel(m: Pick<LeaveMessage, 'senderName' | 'senderUsername' | 'senderCompany'>): string {
  const who = [m.senderUsername, m.senderCompany].filter(Boolean).join(' · ');
  // The name is isolated (FSI … PDI), so that nothing in it reorders the account shown after it.
  return who ? `\u2068${m.senderName}\u2069（${who}）` : m.senderName;
}

/** Read filter of the system-message list: all, unread (0) or read (1). */
export type ReadFilter = 'all' | '0' | '1';

export async function readSysMessage(id: number): Promise<SysMessage> {
  const r = await api(messages.calls.sysReadOne, { query: { id } });
  return r.data;
}

export function readAllSysMessages(): Promise<{ message: string }> {
  return api(messages.calls.sysReadAll);
}

/** Reads a leave message, which marks it read (a department message for the whole department). */
export async function readLeaveMessage(m: Pick<LeaveMessage, 'id' | 'viewId'>): Promise<LeaveMessage> {
  const r = await api(messages.calls.leaveReadOne, { query: { id: m.id, ...(m.viewId ? { viewId: m.viewId } : {}) } });
  return r.data;
}

/** Leaves a message; without a recipient it goes to the administrator. */
export function leaveMessage(content: string, reception?: string): Promise<{ message: string; data: { reception: string } }> {
  return api(messages.calls.leave, { body: { content, ...(reception ? { reception } : {}) } }, { silent: true });
}

/**
 * The top bar's badge moves at once (one fewer unread, or none), then takes the server's count.
 */
export function badgeRead(kind: UnreadKind, count = 1): void {
  unreadStore.set(unreadStore.counts()[kind] - count, kind);
  void unreadStore.refresh();
}

export function badgeRefresh(): void {
  void unreadStore.refresh();
}

/** Message HTML is written by people: it is shown only as the engine's safeHtml leaves it. */
export const sanitizeHtml = safeHtml;

/** The text of an HTML title, for lists and labels. */
export function htmlText(html: string): string {
  const box = document.createElement('div');
  box.innerHTML = sanitizeHtml(html);
  return (box.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * The unread count, and `reload` each time it rises: a message arriving over the websocket shows in
 * the list at once.
 */
export function useUnreadReload(reload: () => void): number {
  const unread = useUnreadCount();
  const seen = useRef(unread);
  useEffect(() => {
    if (unread > seen.current) reload();
    seen.current = unread;
  }, [unread, reload]);
  return unread;
}
