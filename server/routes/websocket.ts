import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { unreadCounts } from './messages.js';

/** Close code for a missing, invalid or foreign token (4000–4999 are free for applications). */
export const WS_UNAUTHORIZED = 4401;

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
      try {
        const user = await ctx.sessions.authenticate(typeof token === 'string' ? token : undefined);
        if (user.username !== username) throw new Error('token of another user');
        userId = user.id;
      } catch {
        socket.close(WS_UNAUTHORIZED, 'unauthorized');
        return;
      }

      const remove = ctx.realtime.add(username, socket);
      socket.on('close', remove);
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
