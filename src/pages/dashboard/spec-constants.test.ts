import { describe, expect, it } from 'vitest';
import { CAPACITY_COUNT_MS, FINANCE_COUNT_MS } from './count-up';
import { LEAVE_MESSAGES_CALL, SYSTEM_INFO_CALL } from './system-info';

describe('dashboard constants of the specification', () => {
  it('counts figures up over 3200 to 3600 ms: finance and capacity over 3600 ms', () => {
    expect(FINANCE_COUNT_MS).toBe(3600);
    expect(CAPACITY_COUNT_MS).toBe(3600);
    for (const ms of [FINANCE_COUNT_MS, CAPACITY_COUNT_MS]) {
      expect(ms).toBeGreaterThanOrEqual(3200);
      expect(ms).toBeLessThanOrEqual(3600);
    }
  });

  it('asks for 5 unread system messages and 3 unread leave messages, page 1', () => {
    const [system, systemQuery] = SYSTEM_INFO_CALL;
    const [leave, leaveQuery] = LEAVE_MESSAGES_CALL;
    expect([system.path, systemQuery]).toEqual(['/api/sysMessage/page', { haveRead: '0', page: 1, size: 5 }]);
    expect([leave.path, leaveQuery]).toEqual(['/api/unreadLeaveMessage', { page: 1, size: 3 }]);
  });
});
