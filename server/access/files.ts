import { sql } from 'kysely';
import { hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { designedView } from '../lowcode/view-store.js';
import { rowScope } from './rows.js';

/**
 * Who reads a stored file. Its path is 96 random bits, but a path once seen (in a record, a log, a
 * forwarded link) is no permission: a private file is read only by
 * - accounts of 全部;
 * - its uploader, and the accounts of the uploader's company;
 * - whoever may list a low-code record that holds it in a file or image field, within their row scope.
 * An open file (public content: big-screen pictures, bulletin images) is read by anyone.
 */

export interface StoredFile {
  file_path: string;
  user_id: number | null;
  open: boolean;
}

/** The designed views that have a file or image field, and those fields' columns. */
async function viewsWithFiles(ctx: AppContext): Promise<{ view: ViewModel; columns: string[] }[]> {
  const rows = await ctx.db.selectFrom('lc_generation').select('id').where('dis_template', 'is not', null).orderBy('id').execute();
  const out: { view: ViewModel; columns: string[] }[] = [];
  for (const r of rows) {
    const view = await designedView(ctx, r.id).catch(() => null);
    if (!view) continue;
    const columns = view.fields.filter((f) => f.file && !f.system).map((f) => f.column);
    if (columns.length) out.push({ view, columns });
  }
  return out;
}

/** Whether the user may read the stored file. */
export async function mayReadFile(ctx: AppContext, user: SessionUser, file: StoredFile): Promise<boolean> {
  if (file.open || user.dataScope.all) return true;
  if (file.user_id !== null) {
    if (file.user_id === user.id) return true;
    const uploader = await ctx.db.selectFrom('sys_user').select('company_id').where('id', '=', file.user_id).executeTakeFirst();
    if (uploader?.company_id != null && uploader.company_id === user.companyId) return true;
  }
  // Stored paths are yyyy/mm/hex.ext: nothing in them is special to LIKE.
  const pattern = `%${file.file_path}%`;
  for (const { view, columns } of await viewsWithFiles(ctx)) {
    if (!hasPermission(user.roles, view.page.permissions.list)) continue;
    const scope = await rowScope(ctx, view, user);
    const holds = sql.join(
      columns.map((c) => sql`${sql.ref(`t.${c}`)}::text like ${pattern}`),
      sql` or `,
    );
    const found =
      await sql`select 1 from ${sql.table(`lc_view_${view.id}`)} as t where (${holds}) and ${scope?.condition ?? sql`true`} limit 1`.execute(
        ctx.db,
      );
    if (found.rows.length) return true;
  }
  return false;
}
