/**
 * Which renderer draws a definition fetched from the server. Pure: the build's generated pages are
 * passed in, so the choice is tested without a build or a browser.
 */
import type { ZodType } from 'zod';
import { generation } from '../../contract/generation';
import { screens } from '../../contract/screens';
import type { ListPageModel, PageModel } from '../../model';
import { buildSchema, decodeDefinition, definitionHash, isWarning, normalizeDefinition, type Problem } from '../../model';
import type { GeneratedRoute } from '../routes';

export const VIEW_DETAIL_URL = generation.calls.detail.path;
export const SCREEN_DETAIL_URL = screens.calls.detail.path;

export type DefinitionKind = 'view' | 'screen';

export const detailUrlOf = (kind: DefinitionKind) => (kind === 'view' ? VIEW_DETAIL_URL : SCREEN_DETAIL_URL);

/**
 * - `generated`: the build has a page for it and its hash equals the fetched definition's;
 * - `runtime`: no generated page, a different hash, or the caller asked for run time;
 * - `invalid`: the definition fails validation (its problems carry JSON pointers);
 * - `undesigned`: created but not designed yet (empty disTemplate).
 */
export type Resolution =
  | { kind: 'generated'; route: GeneratedRoute; hash: string }
  | { kind: 'runtime'; page: PageModel; hash: string; reason: 'no-generated-page' | 'hash-differs' | 'runtime-only' }
  | { kind: 'invalid'; problems: Problem[] }
  | { kind: 'undesigned'; reason: string };

export interface ResolveOptions {
  /** The build's generated pages; none means every definition is drawn at run time. */
  routes?: readonly GeneratedRoute[];
  /** Skip the generated page (previews, dialogs that pass filters of their own). */
  runtimeOnly?: boolean;
}

/** The definition as the server answered it (disTemplate and disMenu as JSON text or objects). */
export function resolveDefinition(kind: DefinitionKind, raw: unknown, options: ResolveOptions = {}): Resolution {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      kind: 'invalid',
      problems: [{ code: 'E_TYPE', file: `${kind}`, pointer: '', message: '定义不是 JSON 对象' }],
    };
  }
  const decoded = decodeDefinition(raw as Record<string, unknown>);
  const id = Number(decoded.id);
  const hash = definitionHash(decoded);
  const route = (options.routes ?? []).find((r) => r.kind === kind && r.id === id);
  if (route && route.hash === hash && !options.runtimeOnly) return { kind: 'generated', route, hash };
  const file = `${detailUrlOf(kind)}?id=${Number.isFinite(id) ? id : ''}`;
  const result = normalizeDefinition({ kind, file, json: decoded });
  const errors = result.problems.filter((p) => !isWarning(p));
  if (errors.length) return { kind: 'invalid', problems: errors };
  if (result.skipped) return { kind: 'undesigned', reason: result.skipped.reason };
  if (!result.page)
    return {
      kind: 'invalid',
      problems: result.problems.length ? result.problems : [{ code: 'E_TYPE', file, pointer: '', message: '定义中没有可显示的页面' }],
    };
  return {
    kind: 'runtime',
    page: result.page,
    hash,
    reason: options.runtimeOnly ? 'runtime-only' : route ? 'hash-differs' : 'no-generated-page',
  };
}

export type ViewResolution =
  | Exclude<Resolution, { kind: 'runtime' }>
  | { kind: 'runtime'; page: ListPageModel; schema: ZodType<Record<string, unknown>>; hash: string; reason: string };

/** resolveDefinition for a view, with the runtime form schema built from the model. */
export function resolveView(raw: unknown, options: ResolveOptions = {}): ViewResolution {
  const r = resolveDefinition('view', raw, options);
  if (r.kind !== 'runtime') return r;
  if (r.page.kind !== 'list')
    return { kind: 'invalid', problems: [{ code: 'E_TYPE', file: 'view', pointer: '', message: '不是列表视图' }] };
  return { ...r, page: r.page, schema: buildSchema(r.page.form) };
}

/** The name a definition goes by: its page's title, else the name it was saved under. */
export function titleOf(resolution: Resolution | ViewResolution, raw: unknown): string | undefined {
  if (resolution.kind === 'generated') return resolution.route.title;
  if (resolution.kind === 'runtime') return resolution.page.title;
  const name = raw && typeof raw === 'object' ? (raw as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.trim() ? name.trim() : undefined;
}
