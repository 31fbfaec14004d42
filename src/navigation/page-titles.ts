/**
 * Low-code pages by address: `/dev-tools/temp/page/{name}/{viewId}` draws a view and
 * `/{x}/vBuild/temp/{screenId}` a screen, whether or not a menu points at them. A page that no
 * menu names is called by its definition's name once the page has loaded it, and by its kind and
 * id until then.
 */
import { useSyncExternalStore } from 'react';
import { type LowcodeAddress, lowcodePageOf as lowcodePageAt, trimPath } from '../model';
import { createListeners } from '../shared/listeners';

export type LowcodePage = Pick<LowcodeAddress, 'kind' | 'id'>;

/** The view or screen a path draws, if it is a low-code page's address. */
export const lowcodePageOf: (pathname: string) => LowcodeAddress | undefined = lowcodePageAt;

/** What a low-code page is called before its definition has said: 视图 12, 页面 40. */
export function placeholderTitle(page: LowcodePage): string {
  return `${page.kind === 'view' ? '视图' : '页面'} ${page.id}`;
}

/** The title of a low-code page's address from the names learned so far, or undefined for any other path. */
export function lowcodeTitle(pathname: string, titles: ReadonlyMap<string, string>): string | undefined {
  const page = lowcodePageOf(pathname);
  if (!page) return undefined;
  return titles.get(trimPath(pathname)) ?? placeholderTitle(page);
}

let titles: ReadonlyMap<string, string> = new Map();
const listeners = createListeners();

export const pageTitles = {
  get: (): ReadonlyMap<string, string> => titles,
  subscribe: listeners.subscribe,
  /** The definition of the page at `pathname` is called `title`. */
  set(pathname: string, title: string): void {
    const path = trimPath(pathname);
    if (titles.get(path) === title) return;
    titles = new Map(titles).set(path, title);
    listeners.emit();
  },
};

export function usePageTitles(): ReadonlyMap<string, string> {
  return useSyncExternalStore(pageTitles.subscribe, pageTitles.get, pageTitles.get);
}
