import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../request/client';
import type { SessionState } from '../session/session-store';
import { createAuthHandlers, EXPIRED_MESSAGE } from './auth-handlers';

function setup(path = '/system/user', search = '?page=2') {
  let answer: (ok: boolean) => void = () => {};
  /** One clock for the client's call stamps and the handlers, moved by the tests. */
  const clock = { t: 1_000 };
  /** Answers of calls held back until a test releases them (URLs with `held`). */
  const held: (() => void)[] = [];
  const deps = {
    now: () => clock.t,
    here: { pathname: path, search },
    status: 'ready' as SessionState['status'],
    location: () => deps.here,
    navigate: vi.fn(),
    reload: vi.fn(),
    session: { status: () => deps.status, clear: vi.fn() },
    notifier: {
      confirm: vi.fn(
        () =>
          new Promise<boolean>((resolve) => {
            answer = resolve;
          }),
      ),
    },
  };
  const handlers = createAuthHandlers(deps);
  const client = createClient({
    now: deps.now,
    fetch: async (url) => {
      const status = String(url).includes('forbidden') ? 403 : 401;
      if (String(url).includes('held')) await new Promise<void>((release) => held.push(release));
      const code = new URL(String(url), 'http://x').searchParams.get('code');
      return new Response(JSON.stringify(code ? { status, code, message: 'x' } : { status, message: 'x' }), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    },
    ...handlers,
  });
  return { deps, client, clock, held, answer: (ok: boolean) => answer(ok) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('401 and 403 reactions', () => {
  it('asks once when several calls fail together; re-login clears the session and reloads into /login?redirect', async () => {
    const { deps, client, answer } = setup();
    await Promise.allSettled([client.get('/api/a'), client.get('/api/b'), client.get('/api/c')]);
    expect(deps.notifier.confirm).toHaveBeenCalledTimes(1);
    expect(deps.notifier.confirm).toHaveBeenCalledWith({
      title: '系统提示',
      content: EXPIRED_MESSAGE,
      okText: '重新登录',
      cancelText: '取消',
    });
    expect(EXPIRED_MESSAGE).toBe('登录状态已过期，您可以继续留在该页面，或者重新登录');
    answer(true);
    await flush();
    expect(deps.session.clear).toHaveBeenCalledTimes(1);
    expect(deps.reload).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent('/system/user?page=2')}`);
  });

  it('never sends a token from the address back through the redirect', async () => {
    const { deps, client, answer } = setup('/system/user', '?token=Bearer%20old&page=2');
    await client.get('/api/a').catch(() => {});
    answer(true);
    await flush();
    expect(deps.reload).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent('/system/user?page=2')}`);
  });

  it('stays on the page when the user cancels, and asks again on a later 401', async () => {
    const { deps, client, clock, answer } = setup();
    await client.get('/api/a').catch(() => {});
    clock.t += 5;
    answer(false);
    await flush();
    clock.t += 5;
    expect(deps.session.clear).not.toHaveBeenCalled();
    expect(deps.reload).not.toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
    await client.get('/api/a').catch(() => {});
    expect(deps.notifier.confirm).toHaveBeenCalledTimes(2);
  });

  it('does not ask again for a call sent before the user chose to stay', async () => {
    const { deps, client, clock, held, answer } = setup();
    const late = client.get('/api/held').catch(() => {});
    await client.get('/api/a').catch(() => {});
    clock.t += 5;
    answer(false);
    await flush();
    // Its 401 comes back after the choice: that call was answered already.
    for (const release of held) release();
    await late;
    expect(deps.notifier.confirm).toHaveBeenCalledTimes(1);
    // A call sent after the choice asks again.
    clock.t += 5;
    await client.get('/api/b').catch(() => {});
    expect(deps.notifier.confirm).toHaveBeenCalledTimes(2);
  });

  it('does not ask on /login, nor while the guard is loading the session (it logs out and reloads itself)', async () => {
    const login = setup('/login', '?redirect=/');
    await login.client.get('/api/a').catch(() => {});
    expect(login.deps.notifier.confirm).not.toHaveBeenCalled();

    for (const status of ['loading', 'failed'] as const) {
      const guard = setup();
      guard.deps.status = status;
      await guard.client.get('/api/menus/build').catch(() => {});
      expect(guard.deps.notifier.confirm).not.toHaveBeenCalled();
    }
  });

  it('sends a 403 to /401 with the server message as its reason and the refused address', async () => {
    const { deps, client } = setup();
    await expect(client.get('/api/forbidden')).rejects.toMatchObject({ status: 403 });
    expect(deps.navigate).toHaveBeenCalledWith('/401', { reason: 'x', from: `${deps.here.pathname}${deps.here.search}` });
    expect(deps.notifier.confirm).not.toHaveBeenCalled();
  });

  it('keeps an account whose password expired on its page (the forced dialog is open over it)', async () => {
    const { deps, client } = setup();
    await expect(client.get('/api/forbidden', { code: 'PASSWORD_EXPIRED' })).rejects.toMatchObject({ status: 403 });
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('sends an account that has not accepted the entry agreement to the agreement page', async () => {
    const { deps, client } = setup();
    await expect(client.get('/api/forbidden', { code: 'AGREEMENT_PENDING' })).rejects.toMatchObject({ status: 403 });
    expect(deps.navigate).toHaveBeenCalledWith('/entryAgreement');
  });
});
