/**
 * Custom buttons: the six actions (submit, groovy, dialog, view, website, system), each behind its
 * confirm. The page passes what a button may touch (the data provider, navigation, the list's
 * reload, the dialog opener), so the actions need no React.
 */
import { type ButtonModel, isOpenableUrl, type ListPageModel } from '../../model';
import type { DataProvider, EngineNotifier, EngineServices } from '../services';
import { linkedId, locationTarget, MESSAGES, systemTarget, viewTarget } from './rules';

export type ButtonRow = Record<string, unknown>;

export interface ButtonContext {
  model: Pick<ListPageModel, 'viewId' | 'api' | 'form'>;
  data: Pick<DataProvider, 'custom' | 'groovy'>;
  download: EngineServices['download'];
  notify: Pick<EngineNotifier, 'success' | 'confirm' | 'error'>;
  /** In-app navigation. */
  navigate: (to: string) => void;
  /** A new browser window; runButton gives it only addresses isOpenableUrl accepts. */
  openWindow: (url: string) => void;
  /** The current location's query (`?a=1`), kept by `system`. */
  search: string;
  reload: () => void;
  /**
   * `dialog`: shows view `button.view` in a dialog, read-only: the record the row links (`linked`, for a
   * linkField button), or the records naming the row (its foreign key).
   */
  openView: (button: ButtonModel, row: ButtonRow | undefined, linked?: string) => void;
}

function messageOf(answer: unknown): string {
  if (answer && typeof answer === 'object' && 'message' in answer) {
    const m = (answer as { message?: unknown }).message;
    if (typeof m === 'string' && m) return m;
  }
  return MESSAGES.done;
}

function locationOf(answer: unknown): string | undefined {
  if (!answer || typeof answer !== 'object') return undefined;
  const a = answer as { location?: unknown; data?: unknown };
  if (typeof a.location === 'string' && a.location) return a.location;
  if (a.data && typeof a.data === 'object') {
    const inner = (a.data as { location?: unknown }).location;
    if (typeof inner === 'string' && inner) return inner;
  }
  return undefined;
}

/**
 * Whether an address may be opened or followed; one that may not (a `javascript:` address, say, from
 * a definition published after the build or from a script's answer) is reported and not opened.
 */
function openable(url: string, ctx: ButtonContext): boolean {
  if (isOpenableUrl(url)) return true;
  ctx.notify.error(MESSAGES.unsafeAddress);
  return false;
}

/**
 * Runs a button on its rows (the selection for a toolbar button, the row for a row button).
 * Resolves false when the user declined the confirm or the call failed (already reported).
 */
export async function runButton(button: ButtonModel, rows: readonly ButtonRow[], ctx: ButtonContext): Promise<boolean> {
  if (button.confirm && !(await ctx.notify.confirm({ title: MESSAGES.confirmTitle, content: MESSAGES.confirmAction }))) return false;
  const key = ctx.model.form.dialog.key;
  const ids = rows.map((r) => r[key]).filter((v) => v !== undefined && v !== null);
  const first = rows[0];
  const rowId = first?.[key];
  const linked = linkedId(button, first);
  // A relation button acts only where its row links a record (it is not shown elsewhere).
  if (button.linkField && linked === undefined) return false;
  try {
    switch (button.action) {
      case 'submit': {
        const url = button.submitUrl ?? '';
        const params = { id: ids.join(',') };
        if (button.submitType === 'download') {
          return await ctx.download(url, params);
        }
        if (button.submitType === 'post') await ctx.data.custom({ url, method: 'post', payload: params });
        else await ctx.data.custom({ url, method: 'get', query: params });
        // A custom submit says 提交成功 (the catalogue's submit notice); a script's answer speaks for itself.
        ctx.notify.success(MESSAGES.submitted);
        ctx.reload();
        return true;
      }
      case 'groovy': {
        const answer = await ctx.data.groovy({
          resource: { viewId: ctx.model.viewId, api: ctx.model.api },
          name: button.name,
          action: button.groovyAction ?? button.name,
          ids,
        });
        const location = locationOf(answer);
        if (location) {
          // The script has run: an address that may not be opened is reported, and the list still reloads.
          const target = locationTarget(location);
          if (openable(target.href, ctx)) {
            if (target.inApp) ctx.navigate(target.href);
            else ctx.openWindow(target.href);
          }
        } else {
          ctx.notify.success(messageOf(answer));
        }
        ctx.reload();
        return true;
      }
      case 'dialog':
        ctx.openView(button, first, linked);
        return true;
      case 'view':
        ctx.navigate(viewTarget(button, rowId, linked));
        return true;
      case 'website':
        if (button.websiteUrl) {
          if (!openable(button.websiteUrl, ctx)) return false;
          ctx.openWindow(button.websiteUrl);
        }
        return true;
      case 'system':
        if (button.websiteUrl) {
          if (!openable(button.websiteUrl, ctx)) return false;
          ctx.navigate(systemTarget(button.websiteUrl, ctx.search, rowId, rows.length, linked));
        }
        return true;
    }
  } catch {
    // The data provider has shown the error.
    return false;
  }
  return false;
}
