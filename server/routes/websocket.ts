import type { App } from '../app.js';
import { PASSWORD_MAX_AGE_DAYS, pendingState, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { unreadCounts } from '../lib/unread.js';
import { WS_PENDING, WS_UNAUTHORIZED } from '../realtime.js';

export { WS_PENDING, WS_UNAUTHORIZED };

/** How often the sessions of open sockets are checked for idling: a tenth of the idle limit, 0.1 s to 30 s. */
export function sessionCheckMs(idleMs: number): number {
  return Math.min(30_000, Math.max(100, Math.floor(idleMs / 10)));
}

const PONG = JSON.stringify({ type: 'pong' });

function isHeartbeat(text: string): boolean {
  if (text === 'ping') return true;
  try {
    return (JSON.parse(text) as { type?: unknown })?.type === 'heartbeat';
  } catch {
    return false;
  }
}

/** When (ms) a password set at `setAt` reaches its maximum age and the account becomes pending. */
const passwordAgesOutAt = (setAt: number) => setAt + PASSWORD_MAX_AGE_DAYS * 86_400_000;

/** Of these sessions, those whose account must first resolve its state, by the rule the HTTP calls follow. */
async function pendingSessions(ctx: AppContext, sessionIds: readonly string[]): Promise<string[]> {
  const pending: string[] = [];
  for (let i = 0; i < sessionIds.length; i += 500) {
    const rows = await ctx.db
      .selectFrom('sys_session as s')
      .innerJoin('sys_user as u', 'u.id', 's.user_id')
      .select(['s.id', 'u.agreement_accepted', 'u.pwd_reset_time'])
      .where('s.id', 'in', sessionIds.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const passwordSetAt = r.pwd_reset_time ? new Date(r.pwd_reset_time).getTime() : null;
      if (pendingState({ agreementAccepted: r.agreement_accepted, passwordSetAt })) pending.push(r.id);
    }
  }
  return pending;
}

/**
 * The realtime channel: /websocket/{username}?token=…. It lives outside /api, so the core auth
 * hook does not see it; the token comes in the query (browsers cannot set headers on a websocket)
 * and must belong to {username}.
 *
 * A session whose account must first resolve its state (password expired, agreement not accepted) gets
 * no channel, as it gets none of the calls but the `pending` ones: the socket is refused with 4403 and
 * registers nothing, so no notice, message or count can reach it. A socket whose account becomes pending
 * is closed with 4403 too. The session is not ended: the app tries again, and the channel opens once the
 * state is resolved (an agreement accepted; a password change ends the sessions anyway).
 */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  // A socket closes with 4401 when its session ends, on whichever instance it ended (see Realtime), and
  // with 4403 when its account becomes pending.
  const stopWatching = ctx.realtime.watch(async (ids) => {
    const ended = await ctx.sessions.ended(ids);
    const gone = new Set(ended);
    const live = ids.filter((id) => !gone.has(id));
    return { ended, pending: live.length ? await pendingSessions(ctx, live) : [] };
  }, sessionCheckMs(ctx.config.sessionIdleMs));
  app.addHook('onClose', async () => stopWatching());

  app.get(
    '/websocket/:username',
    {
      // The socket checks its own token (a browser cannot send headers on a websocket) and closes with 4401.
      config: { public: true },
      websocket: true,
    },
    async (socket, req) => {
      // Messages that arrive while the token is being checked are answered once it is.
      const early: string[] = [];
      const onEarly = (data: unknown) => early.push(String(data));
      socket.on('message', onEarly);

      const { username } = req.params as { username: string };
      const token = (req.query as Record<string, unknown>).token;
      let user: SessionUser;
      try {
        user = await ctx.sessions.authenticate(typeof token === 'string' ? token : undefined);
        if (user.username !== username) throw new Error('token of another user');
      } catch {
        socket.close(WS_UNAUTHORIZED, 'unauthorized');
        return;
      }
      if (pendingState(user)) {
        socket.close(WS_PENDING, 'account pending');
        return;
      }
      const userId = user.id;
      const sessionId = user.sessionId;

      const remove = ctx.realtime.add(socket, {
        username,
        userId,
        sessionId,
        ...(user.passwordSetAt === null ? {} : { pendingAt: passwordAgesOutAt(user.passwordSetAt) }),
      });
      socket.on('close', remove);
      // A session that ended, or an account that became pending, while the token was being checked sent
      // no event this socket could hear: the database tells.
      try {
        if ((await ctx.sessions.ended([sessionId])).length) {
          ctx.realtime.endSession(sessionId);
          return;
        }
        if ((await pendingSessions(ctx, [sessionId])).length) {
          ctx.realtime.holdSession(sessionId);
          return;
        }
      } catch (err) {
        req.log.warn({ err }, 'session check for websocket failed');
      }
      if (socket.readyState !== socket.OPEN) return;
      socket.off('message', onEarly);
      const onMessage = (data: unknown) => {
        if (isHeartbeat(String(data))) socket.send(PONG);
      };
      socket.on('message', onMessage);
      for (const text of early) onMessage(text);

      try {
        const { total } = await unreadCounts(ctx, user);
        // Only to this socket: the user's other tabs already know their count.
        if (socket.readyState === socket.OPEN) {
          socket.send(JSON.stringify({ sender: 'system', reception: username, body: { unreadNum: total }, flag: 'unread' }));
        }
      } catch (err) {
        req.log.warn({ err }, 'unread count for websocket failed');
      }
    },
  );
}
