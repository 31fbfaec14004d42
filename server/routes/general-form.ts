import { z } from 'zod';
import { NUMBER_TEXT, submittedFields } from '../../src/model/index.js';
import { rowScope } from '../access/rows.js';
import type { App } from '../app.js';
import { requirePermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { reads } from '../lib/route.js';
import { idSchema } from '../lowcode/params.js';
import { findRecord, type Row } from '../lowcode/rows.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { designedView } from '../lowcode/view-store.js';

/**
 * A form's data (GET /api/general/formData, /api/general/dynamicQuery), beside the view records of
 * general.ts and with its access: the view's `{c}:list` reads a record, `{c}:add` the values an add
 * form starts with. A record outside the caller's data scope is answered as missing (404).
 *
 * - formData `?generalId={viewId}&{key}={id}`: the record a form edits or looks at (the form detail
 *   when the view names no detailUrl), as `{ status, data }`.
 * - dynamicQuery `?generalId={viewId}&{field}={value}…`: the values an add form starts with
 *   (dialogOption.initGroovy): the fields' defaultValue, then the query's values of the fields the
 *   form submits, numbers for number fields; other query keys are ignored.
 */

/** The view's record `id` as `user` may read it: a record outside their data scope is answered as missing (404), so that ids cannot be probed. */
export async function readableRecord(ctx: AppContext, view: ViewModel, user: SessionUser, id: number): Promise<Row> {
  const row = await findRecord(ctx.db, view, id, await rowScope(ctx, view, user));
  if (!row) throw notFound();
  return row;
}

const generalQuery = z.object({ generalId: idSchema }).catchall(z.union([z.string(), z.array(z.string())]));

const OK = 200;

/** A value of the query (a repeated key's values joined by commas) as its field stores it. */
function fieldValue(dataType: string, raw: string | string[]): unknown {
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  if ((dataType === 'long' || dataType === 'decimal') && NUMBER_TEXT.test(text)) return Number(text);
  return text;
}

/** The add form's starting values: defaults, then the query's values of submitted fields. */
export function initialValues(view: ViewModel, query: Record<string, unknown>): Row {
  const data: Row = {};
  const fields = submittedFields(view.page.form);
  for (const f of fields) {
    if (f.defaultValue === undefined) continue;
    data[f.name] = fieldValue(f.dataType, String(f.defaultValue));
  }
  for (const f of fields) {
    const raw = query[f.name];
    if (typeof raw === 'string' || (Array.isArray(raw) && raw.every((v) => typeof v === 'string'))) {
      data[f.name] = fieldValue(f.dataType, raw);
    }
  }
  return data;
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  app.get('/api/general/formData', reads({ session: true }, { querystring: generalQuery }), async (req) => {
    const view = await designedView(ctx, req.query.generalId);
    const user = requirePermission(req, view.page.permissions.list);
    const key = view.page.form.dialog.key;
    const raw = req.query.id ?? req.query[key];
    const id = idSchema.safeParse(Array.isArray(raw) ? raw[0] : raw);
    if (!id.success) throw badRequest(`${key} 不能为空`);
    return { status: OK, data: await readableRecord(ctx, view, user, id.data) };
  });

  app.get('/api/general/dynamicQuery', reads({ session: true }, { querystring: generalQuery }), async (req) => {
    const view = await designedView(ctx, req.query.generalId);
    requirePermission(req, view.page.permissions.add);
    return { status: OK, data: initialValues(view, req.query) };
  });
}
