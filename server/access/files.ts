import { sql } from 'kysely';
import { errorMessage } from '../../src/shared/error-catalogue.js';
import { hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { Row } from '../lowcode/record-input.js';
import type { ViewField, ViewModel } from '../lowcode/view-model.js';
import { designedView } from '../lowcode/view-store.js';
import { rowScope } from './rows.js';

/**
 * Who reads a stored file. Its path is 96 random bits, but a path once seen (in a record, a log, a
 * forwarded link) is no permission: a private file is read only by
 * - accounts of 全部;
 * - its uploader, and the accounts of the company it was uploaded in (the uploader's then, not the
 *   uploader's now: an account moved to another company does not take its company's files with it);
 * - whoever may list a low-code record that holds it in a file or image field, within their row scope.
 * An open file (public content: big-screen pictures, bulletin images) is read by anyone.
 */

export interface StoredFile {
  file_path: string;
  user_id: number | null;
  company_id: number | null;
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
  if (file.user_id !== null && file.user_id === user.id) return true;
  if (file.company_id !== null && file.company_id === user.companyId) return true;
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

/** Stored paths (yyyy/mm/hex.ext) anywhere in a file field's text, however it lists them. */
const STORED_PATHS = /\d{4}\/\d{2}\/[0-9a-f]{24}\.(?:docx?|xlsx?|pdf|png|jpe?g|webp)/g;

export const pathsIn = (v: unknown): string[] => (typeof v === 'string' ? [...new Set(v.match(STORED_PATHS) ?? [])] : []);

const fileProblem = (f: ViewField) => ({ field: f.name, message: errorMessage('FILE_NOT_YOURS', { label: f.label }) });

/** Per row of a write, the first field the writer may not give and why; undefined where all is well. */
export type RowProblems = ({ field: string; message: string } | undefined)[];
/**
 * A judge of the rows a write is about to store (all of an import at once) for the view and the writer;
 * `existing` is the stored record on update, whose values are not judged again.
 */
export type RowsJudge = (ctx: AppContext, view: ViewModel, user: SessionUser, rows: Row[], existing?: Row) => Promise<RowProblems>;

/**
 * A record's file and image fields may hold only files their writer may read: otherwise writing a known
 * path into one's own record would make it readable through that record. Paths the stored record holds
 * already are not judged again; a path of no stored file is refused too. Returns, per row, the first
 * field whose files the writer may not give.
 */
export const fileProblems: RowsJudge = async (ctx, view, user, rows, existing) => {
  const problems: RowProblems = rows.map(() => undefined);
  const verdicts = new Map<string, boolean>();
  const readable = async (path: string) => {
    let ok = verdicts.get(path);
    if (ok === undefined) {
      const file = await ctx.db
        .selectFrom('file_record')
        .select(['file_path', 'user_id', 'company_id', 'open'])
        .where('file_path', '=', path)
        .executeTakeFirst();
      ok = !!file && (await mayReadFile(ctx, user, file));
      verdicts.set(path, ok);
    }
    return ok;
  };
  for (const f of view.formFields) {
    if (!f.file || f.system) continue;
    const kept = new Set(existing ? pathsIn(existing[f.name]) : []);
    for (const [i, r] of rows.entries()) {
      if (problems[i] || !Object.hasOwn(r, f.column)) continue;
      for (const path of pathsIn(r[f.column])) {
        if (kept.has(path) || (await readable(path))) continue;
        problems[i] = fileProblem(f);
        break;
      }
    }
  }
  return problems;
};
