import { logs } from '../../src/contract/logs.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { formatTime } from '../lib/accounts-users.js';
import { paginate } from '../lib/paging.js';
import { registerResource } from './register.js';

/** The operation log of the signed-in user. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, logs, {
    mine: async (req) => {
      const me = currentUser(req);
      const { content, totalElements } = await paginate(
        db.selectFrom('sys_log').where('user_id', '=', me.id),
        (q) => q.select(['id', 'description', 'request_ip', 'address', 'browser', 'time', 'create_time']).orderBy('id', 'desc'),
        req.query,
      );
      return {
        content: content.map((r) => ({
          id: Number(r.id),
          description: r.description,
          requestIp: r.request_ip,
          address: r.address,
          browser: r.browser,
          time: r.time,
          createTime: formatTime(r.create_time),
        })),
        totalElements,
      };
    },
  });
}
