import { describe, expect, it } from 'vitest';
import { isSupervisorDept, showsMessageBadge } from './departments';

describe('the named departments', () => {
  it('knows the supervisory department by its code, 01', () => {
    expect(isSupervisorDept('01')).toBe(true);
    for (const other of ['0101', '1', '', null, undefined]) expect(isSupervisorDept(other)).toBe(false);
  });

  it('hides the message badge for department 1 only', () => {
    expect(showsMessageBadge(1)).toBe(false);
    for (const other of [2, 0, null, undefined]) expect(showsMessageBadge(other)).toBe(true);
  });
});
