import type { FastifyRequest } from 'fastify';
import { currentUser, hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { type ErrorCode, forbidden } from '../errors.js';
import { escapeLike } from '../lib/sql.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { designedView } from '../lowcode/view-store.js';

/**
 * Option lists that feed other pages (pickers, linked selects): who may read them. A list is readable
 * with one of its own permissions, or with the list permission of a view whose form or search field
 * draws its options from that address, since that view's page cannot work without it.
 */

/** The code an option list refuses with (routes that check by hand throw it too). */
export const LOOKUP_DENIED = 'LOOKUP_DENIED' satisfies ErrorCode;

/** The path of an options address, without origin and query: what a route is matched on. */
function pathOf(url: string): string {
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return '';
  }
}

/** Whether a field of the view (form or list column) draws its options from the path. */
export function drawsOptionsFrom(view: ViewModel, path: string): boolean {
  const urls = [...view.page.form.fields.map((f) => f.remote?.url), ...view.page.columns.map((c) => c.remote?.url)].filter(
    (u): u is string => !!u,
  );
  return urls.some((u) => pathOf(u) === path);
}

/** Views whose fields draw their options from the path (a view that fails to read draws nothing). */
export async function viewsDrawingFrom(ctx: AppContext, path: string): Promise<ViewModel[]> {
  const rows = await ctx.db
    .selectFrom('lc_generation')
    .select('id')
    .where('dis_template', 'like', `%${escapeLike(path)}%`)
    .orderBy('id')
    .execute();
  const out: ViewModel[] = [];
  for (const r of rows) {
    try {
      const view = await designedView(ctx, r.id);
      if (drawsOptionsFrom(view, path)) out.push(view);
    } catch {
      // An undesigned or unreadable definition has no page that could call the list.
    }
  }
  return out;
}

/** Whether the user may list a view that draws its options from the path. */
export async function listsViewDrawingFrom(ctx: AppContext, user: SessionUser, path: string): Promise<boolean> {
  const views = await viewsDrawingFrom(ctx, path);
  return views.some((v) => hasPermission(user.roles, v.page.permissions.list));
}

/**
 * Refuses an option list unless the caller holds one of `permissions` or may list a view that draws its
 * options from the route (`path`, the route's own address).
 */
export async function requireLookup(
  ctx: AppContext,
  req: FastifyRequest,
  path: string,
  permissions: readonly string[],
): Promise<SessionUser> {
  const user = currentUser(req);
  if (permissions.some((p) => hasPermission(user.roles, p))) return user;
  if (await listsViewDrawingFrom(ctx, user, path)) return user;
  throw forbidden(LOOKUP_DENIED);
}
