import { describe, expect, it, vi } from 'vitest';
import { claimedUser, type QueryTokenDeps, switchQuestion, type TokenAccount, takeQueryToken } from './query-token';

/** A token as the server makes them: a JWT whose payload names the account (`uid`). */
const jwt = (uid: number, session: string) =>
  `${btoa(JSON.stringify({ alg: 'HS256' }))}.${btoa(JSON.stringify({ uid, jti: session })).replace(/=+$/, '')}.sig-${session}`;

const PRODUCER: TokenAccount = { id: 3, username: 'producer', nickName: '王丽华' };
const DISPOSER: TokenAccount = { id: 4, username: 'disposer', nickName: '陈建国' };

function setup(href: string, stored: string | null, accounts: Record<string, TokenAccount | null | Error> = {}) {
  let answer: (ok: boolean) => void = () => {};
  const state = { href, stored };
  const deps = {
    href: () => state.href,
    replace: vi.fn((url: string) => {
      state.href = new URL(url, state.href).href;
    }),
    getToken: () => state.stored,
    setToken: vi.fn((t: string) => {
      state.stored = t;
    }),
    whoIs: vi.fn(async (token: string) => {
      const a = accounts[token];
      if (a instanceof Error) throw a;
      return a ?? null;
    }),
    confirm: vi.fn(
      () =>
        new Promise<boolean>((resolve) => {
          answer = resolve;
        }),
    ),
  } satisfies QueryTokenDeps;
  return { deps, state, answer: (ok: boolean) => answer(ok) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('a token in the query string', () => {
  it('changes nothing without one', async () => {
    const { deps, state } = setup('http://host/dashboard?tab=1', 'Bearer a');
    await takeQueryToken(deps);
    expect(deps.replace).not.toHaveBeenCalled();
    expect(state.stored).toBe('Bearer a');
  });

  it('is taken when nobody is signed in, and leaves the address keeping the rest of it', async () => {
    const token = jwt(3, 'one');
    const { deps, state } = setup(`http://host/abandonhome?token=${encodeURIComponent(token)}&tab=1#top`, null);
    await takeQueryToken(deps);
    expect(deps.replace).toHaveBeenCalledWith('/abandonhome?tab=1#top');
    expect(state.stored).toBe(`Bearer ${token}`);
    expect(deps.whoIs).not.toHaveBeenCalled();
    expect(deps.confirm).not.toHaveBeenCalled();
  });

  it('is taken without asking when it is another session of the signed-in account', async () => {
    const current = `Bearer ${jwt(3, 'one')}`;
    const offered = jwt(3, 'two');
    const { deps, state } = setup(`http://host/x?token=${offered}`, current);
    await takeQueryToken(deps);
    expect(state.stored).toBe(`Bearer ${offered}`);
    expect(deps.whoIs).not.toHaveBeenCalled();
    expect(deps.confirm).not.toHaveBeenCalled();
  });

  it('of another account asks first, naming both; cancel keeps the session and stores nothing', async () => {
    const current = `Bearer ${jwt(3, 'one')}`;
    const offered = `Bearer ${jwt(4, 'two')}`;
    const { deps, state, answer } = setup(`http://host/dashboard?token=${encodeURIComponent(offered)}`, current, {
      [current]: PRODUCER,
      [offered]: DISPOSER,
    });
    const done = takeQueryToken(deps);
    // Out of the address at once, before anyone answers.
    expect(state.href).toBe('http://host/dashboard');
    await flush();
    expect(deps.whoIs.mock.calls.map((c) => c[0]).sort()).toEqual([current, offered].sort());
    expect(deps.confirm).toHaveBeenCalledWith(switchQuestion(PRODUCER, DISPOSER));
    expect(switchQuestion(PRODUCER, DISPOSER).content).toBe('当前已登录 王丽华（producer），是否切换为 陈建国（disposer）？');
    answer(false);
    await done;
    expect(state.stored).toBe(current);
    expect(deps.setToken).not.toHaveBeenCalled();
  });

  it('of another account switches when the user says so', async () => {
    const current = `Bearer ${jwt(3, 'one')}`;
    const offered = jwt(4, 'two');
    const { deps, state, answer } = setup(`http://host/dashboard?token=${offered}`, current, {
      [current]: PRODUCER,
      [`Bearer ${offered}`]: DISPOSER,
    });
    const done = takeQueryToken(deps);
    await flush();
    answer(true);
    await done;
    expect(state.stored).toBe(`Bearer ${offered}`);
  });

  it('is taken without asking when the stored token is refused (nobody is signed in), or names the same account', async () => {
    const dead = `Bearer ${jwt(3, 'gone')}`;
    const offered = `Bearer ${jwt(4, 'two')}`;
    const first = setup(`http://host/x?token=${offered}`, dead, { [dead]: null, [offered]: DISPOSER });
    await takeQueryToken(first.deps);
    expect(first.state.stored).toBe(offered);
    expect(first.deps.confirm).not.toHaveBeenCalled();

    // Tokens that claim no account: the server tells they are the same one.
    const second = setup('http://host/x?token=opaque-2', 'Bearer opaque-1', {
      'Bearer opaque-1': PRODUCER,
      'Bearer opaque-2': { ...PRODUCER },
    });
    await takeQueryToken(second.deps);
    expect(second.state.stored).toBe('Bearer opaque-2');
    expect(second.deps.confirm).not.toHaveBeenCalled();
  });

  it('changes nothing when the server refuses it, or cannot say whose the tokens are', async () => {
    const current = `Bearer ${jwt(3, 'one')}`;
    const offered = `Bearer ${jwt(4, 'two')}`;
    for (const answerOfOffered of [null, new Error('网络请求超时')]) {
      const { deps, state } = setup(`http://host/x?token=${offered}`, current, { [current]: PRODUCER, [offered]: answerOfOffered });
      await takeQueryToken(deps);
      expect(state.stored).toBe(current);
      expect(state.href).toBe('http://host/x');
      expect(deps.confirm).not.toHaveBeenCalled();
    }
  });

  it('reads the account a token claims, and nothing from what is no token', () => {
    expect(claimedUser(`Bearer ${jwt(7, 's')}`)).toBe(7);
    expect(claimedUser(jwt(7, 's'))).toBe(7);
    for (const t of ['', 'Bearer ', 'not-a-jwt', 'a.%%%.c', `x.${btoa('{"uid":"7"}')}.y`]) expect(claimedUser(t), t).toBeUndefined();
  });
});
