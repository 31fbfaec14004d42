import { type RawBuilder, sql } from 'kysely';
import type { RemoteOptions, RemoteParam } from '../../src/model/index.js';
import { namedTable } from '../lib/named-table.js';
import type { ViewField, ViewModel } from './view-model.js';

/**
 * A field that picks a record (a warehouse, a contact, a company, a department, a record of another
 * view) stores its id. The list and detail answer the picked record's label beside it as `{name}Fmt`,
 * read with the row: a user sees the label of every record its rows refer to, also where the option
 * list (scoped to the user) does not hold that record, as for the contact of a disposer an inquiry is
 * addressed to.
 */

export interface ReferenceLabel {
  /** The field holding the id; the label is answered as `{field}Fmt`. */
  field: ViewField;
  table: string;
  labelColumn: string;
  /** The other view whose records are picked, when the source is a view's options. */
  viewId?: number;
}

/** Option calls whose records live in one table, and the column that labels them. */
const FIXED_SOURCES: Record<string, { table: string; labelColumn: string }> = namedTable({
  '/api/company/list': { table: 'company', labelColumn: 'name' },
  '/api/companyLinkman/list': { table: 'company_linkman', labelColumn: 'name' },
  '/api/companyWarehouse/list': { table: 'company_warehouse', labelColumn: 'name' },
  '/api/dept/find': { table: 'sys_dept', labelColumn: 'name' },
  '/api/getUserProcessPrimary': { table: 'disposal_process', labelColumn: 'name' },
});

/** The options of administrative regions: a tree whose values are region codes. */
export const REGION_TREE_PATH = '/api/region/regionTreeList';

/**
 * The company types a company picker asks for (`/api/company/list`'s `type`): one type, or several joined
 * by commas, as a field whose party may be of more than one kind asks (a waste's producer may be a
 * producer, a collection point or a disposer handing on its residues); none: every type.
 */
export function companyTypes(type: string | undefined): string[] {
  return [...new Set((type ?? '').split(',').map((t) => t.trim()))].filter((t) => t !== '');
}

const QUERY_LINK = /^\/api\/general\/allList\/(\d{1,9})\/queryLink$/;

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return '';
  }
}

/** The options a field draws from, if any. */
function remoteOf(view: ViewModel, f: ViewField): RemoteOptions | undefined {
  return f.form?.remote ?? view.page.columns.find((c) => c.name === f.name)?.remote;
}

/** The options address a field draws from, if any. */
export function sourceOf(view: ViewModel, f: ViewField): string | undefined {
  const url = remoteOf(view, f)?.url;
  return url ? pathOf(url) : undefined;
}

/** Where a field's picked records live: a fixed option call's table, or another view's records. */
export type ReferenceTarget =
  | { path: string; table: string; labelColumn: string; viewId?: undefined; params: RemoteParam[] }
  | { path: string; viewId: number; params: RemoteParam[] };

/** The records a field picks from, when its options are records of a known table or view. */
export function referenceTarget(view: ViewModel, f: ViewField): ReferenceTarget | undefined {
  if (!f.remote || f.system) return undefined;
  const path = sourceOf(view, f);
  if (!path) return undefined;
  const params = remoteOf(view, f)?.params ?? [];
  const fixed = FIXED_SOURCES[path];
  if (fixed) return { path, ...fixed, params };
  const m = QUERY_LINK.exec(path);
  return m ? { path, viewId: Number(m[1]), params } : undefined;
}

/** The label column of a view's records as its options answer them: its first plain text field. */
export function optionLabelField(view: ViewModel): ViewField | undefined {
  return view.fields.find((f) => f.dataType === 'varchar' && !f.system && !f.file && !f.dict && !f.remote && !f.city);
}

/**
 * The labelled references of a view. `otherView` reads another view's definition (null when it is not
 * designed); a field that already has a `{name}Fmt` column keeps it.
 */
export async function referenceLabels(view: ViewModel, otherView: (id: number) => Promise<ViewModel | null>): Promise<ReferenceLabel[]> {
  const out: ReferenceLabel[] = [];
  for (const f of view.fields) {
    if (!f.remote || f.multiple || f.system || view.columns.some((c) => c.name === `${f.name}Fmt`) || view.byName.has(`${f.name}Fmt`))
      continue;
    const target = referenceTarget(view, f);
    if (!target) continue;
    if (target.viewId === undefined) {
      out.push({ field: f, table: target.table, labelColumn: target.labelColumn });
      continue;
    }
    const viewId = target.viewId;
    const other = viewId === view.id ? view : await otherView(viewId).catch(() => null);
    const label = other ? optionLabelField(other) : undefined;
    if (other && label) out.push({ field: f, table: `lc_view_${viewId}`, labelColumn: label.column, viewId });
  }
  return out;
}

/** The label of the record a reference of row `t` picks, as a column `{name}Fmt`. */
export function referenceLabelColumn(r: ReferenceLabel): RawBuilder<unknown> {
  const ref = sql.ref(`t.${r.field.column}`);
  const id = r.field.dataType === 'long' ? ref : sql`case when ${ref}::text ~ '^[0-9]{1,18}$' then ${ref}::text::bigint end`;
  return sql`(select x.${sql.ref(r.labelColumn)}::text from ${sql.table(r.table)} as x where x.id = ${id} limit 1) as ${sql.id(`${r.field.name}Fmt`)}`;
}
