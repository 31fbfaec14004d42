import { describe, expect, it } from 'vitest';
import { downloadPercent } from './download-progress-dialog';

describe('the download dialog’s percent', () => {
  it('is whole percent of a told size, full for an empty file, and none for an untold size', () => {
    expect(downloadPercent(0, 5000)).toBe(0);
    expect(downloadPercent(2999, 5000)).toBe(59);
    expect(downloadPercent(5000, 5000)).toBe(100);
    expect(downloadPercent(0, 0)).toBe(100);
    expect(downloadPercent(1234, null)).toBeNull();
  });
});
