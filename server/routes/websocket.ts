import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { WS_UNAUTHORIZED } from '../realtime.js';
import { unreadCounts } from './messages.js';

export { WS_UNAUTHORIZED };

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

/**
 * The realtime channel: /websocket/{username}?token=…. It lives outside /api, so the core auth
 * hook does not see it; the token comes in the query (browsers cannot set headers on a websocket)
 * and must belong to {username}.
 */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  // A socket closes with 4401 when its session ends, on whichever instance it ended (see Realtime).
  const stopWatching = ctx.realtime.watch((ids) => ctx.sessions.ended(ids), sessionCheckMs(ctx.config.sessionIdleMs));
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
      let userId: number;
      let sessionId: string;
      try {
        const user = await ctx.sessions.authenticate(typeof token === 'string' ? token : undefined);
        if (user.username !== username) throw new Error('token of another user');
        userId = user.id;
        sessionId = user.sessionId;
      } catch {
        socket.close(WS_UNAUTHORIZED, 'unauthorized');
        return;
      }

      const remove = ctx.realtime.add(socket, { username, userId, sessionId });
      socket.on('close', remove);
      // A session that ended while the token was being checked sent its event before the socket was
      // registered: the database tells.
      try {
        if ((await ctx.sessions.ended([sessionId])).length) {
          ctx.realtime.endSession(sessionId);
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
        const { total } = await unreadCounts(ctx.db, userId);
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
