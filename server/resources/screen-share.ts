import { screenShare } from '../../src/contract/screen-share.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { runDataView } from '../lowcode/data-view.js';
import { idSchema } from '../lowcode/params.js';
import { bigScreenOf, cityDataViewOf, dataViewsOf, expiresInOf, newAccessKey, shareUrl, verifyShare } from '../lowcode/screen-share.js';
import { registerResource, writerOf } from './register.js';
import { sharedScreenColumns } from './screens.js';

/**
 * Share links of big screens and the open calls behind them. Making or revoking a link needs the
 * screen edit permission; the open calls need no session, only a valid, unexpired link with the
 * screen's current access key, and they answer only for the data views that screen uses. Open calls
 * are never cached.
 */

const OPEN = '/api/open/';

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.db;

  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith(OPEN)) reply.header('cache-control', 'no-store');
  });

  const screenOf = async (id: number) => {
    const row = await db.selectFrom('lc_screen').select(['id', 'type', 'access_key']).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('SCREEN_NOT_FOUND');
    if (row.type !== 2) throw badRequest('SHARE_NOT_BIG_SCREEN');
    return row;
  };

  const runFor = async (screen: Awaited<ReturnType<typeof verifyShare>>, dataViewId: number) => {
    if (screen.status !== 1) throw forbidden('SCREEN_NOT_ENABLED');
    if (!dataViewsOf(bigScreenOf(screen)).has(dataViewId)) throw forbidden('SHARE_DATA_VIEW_NOT_USED');
    const view = await db.selectFrom('lc_data_view').select(['id', 'name', 'sql']).where('id', '=', dataViewId).executeTakeFirst();
    if (!view) throw notFound('DATA_VIEW_NOT_FOUND');
    return { id: view.id, name: view.name, ...(await runDataView(ctx, view.sql)) };
  };

  registerResource(app, screenShare, {
    share: async (req) => {
      const expiresIn = expiresInOf(req.body.expiresIn);
      const row = await screenOf(req.body.id);
      let accessKey = row.access_key;
      if (!accessKey) {
        accessKey = newAccessKey();
        // Two first shares at once must agree on one key: only a screen still without one takes it.
        await writerOf(req)
          .updateTable('lc_screen')
          .set({ access_key: accessKey })
          .where('id', '=', row.id)
          .where('access_key', 'is', null)
          .execute();
        accessKey = (await screenOf(row.id)).access_key as string;
      }
      const expiresAt = Date.now() + expiresIn * 1000;
      return { url: shareUrl(ctx.secrets.shareSecret, { lsId: row.id, accessKey, timestamp: expiresAt }), expiresAt };
    },

    renewKey: async (req) => {
      const row = await screenOf(req.body.id);
      await writerOf(req).updateTable('lc_screen').set({ access_key: newAccessKey() }).where('id', '=', row.id).execute();
      return { status: 200, message: '操作成功，此前的分享链接已失效' };
    },

    screen: async (req) => {
      const screen = await verifyShare(ctx, req.query);
      // A screen switched off answers neither its template nor its data, whatever links were shared.
      if (screen.status !== 1) throw forbidden('SCREEN_NOT_ENABLED');
      return db.selectFrom('lc_screen').select(sharedScreenColumns).where('id', '=', screen.id).executeTakeFirstOrThrow();
    },

    cityInfo: async (req) => {
      const screen = await verifyShare(ctx, req.query);
      if (screen.status !== 1) throw forbidden('SCREEN_NOT_ENABLED');
      const dataViewId = cityDataViewOf(bigScreenOf(screen));
      if (dataViewId === undefined) return [];
      return (await runFor(screen, dataViewId)).list;
    },

    data: async (req) => {
      const query = req.query;
      const screen = await verifyShare(ctx, query);
      const id = idSchema.safeParse(query.dataViewId);
      if (!id.success) throw badRequest('DATA_VIEW_REQUIRED');
      return runFor(screen, id.data);
    },
  });
}
