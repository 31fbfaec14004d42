import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIMEOUT_MS, requestTimeoutMs } from './client';

describe('request timeout from configuration', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('reads a positive number of ms, else 30 s', () => {
    expect(requestTimeoutMs('15000')).toBe(15_000);
    expect(requestTimeoutMs(8000)).toBe(8000);
    for (const bad of [undefined, '', ' ', '0', '-5', 'abc', null]) expect(requestTimeoutMs(bad)).toBe(DEFAULT_TIMEOUT_MS);
  });

  it("gives the app's request client the configured timeout", async () => {
    vi.stubEnv('VITE_REQUEST_TIMEOUT_MS', '12000');
    const { http } = await import('./index');
    expect(http.config.timeout).toBe(12_000);
    vi.resetModules();
    vi.stubEnv('VITE_REQUEST_TIMEOUT_MS', '');
    expect((await import('./index')).http.config.timeout).toBe(DEFAULT_TIMEOUT_MS);
  });
});
