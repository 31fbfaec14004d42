import { menus as menuCalls } from '../contract/bare.gen';
import { type DefinitionKind, failedTitle } from '../engine';
import { lowcodePageOf, pageTitles } from '../navigation/page-titles';
import { api } from '../request';

/**
 * Names the tag of a low-code page the user may not open, or whose definition did not load: by the
 * title of the menu that leads to it when some menu does (another role's, say), else by what happened
 * (无权访问, 视图不存在, 视图加载失败), never by its bare id (视图 17).
 */
export async function titleFailedPage(path: string, status: number, kind?: DefinitionKind): Promise<void> {
  const page = lowcodePageOf(path);
  if (!page) return;
  let title: string | null = null;
  try {
    title = (await api(menuCalls.page, { query: { path } }, { silent: true, skipAuthHandlers: true })).title;
  } catch {
    // Not known to be a menu's page: named by what happened.
  }
  pageTitles.set(path, title || failedTitle(kind ?? page.kind, status));
}
