/**
 * Every low-code page's address that a definition, a menu or a link names, built and read here
 * only: the app, the shell, the server and the CLI use these. The app's own pages' addresses are
 * in src/shared/app-paths.ts.
 */

/** The menu component of a view's page, and the folder its address lives in. */
export const VIEW_PAGE_COMPONENT = 'dev-tools/temp/page';
/** The menu component of a screen's page: the screen's own template drawn at its address. */
export const SCREEN_PAGE_COMPONENT = 'vBuild/temp';

/**
 * Menu components of the app's own pages that stand in for a screen at the address of the menu
 * naming them: the read-only logistics detail, and the leave-message inbox.
 */
export const LOGISTICS_DETAIL_COMPONENT = 'logistics/detail';
export const LEAVE_MESSAGES_COMPONENT = 'message/leaveMessage';

/** List pages live at /dev-tools/temp/page/{componentName}/{viewId}. */
export const viewPath = (componentName: string, id: number | string): string => `/${VIEW_PAGE_COMPONENT}/${componentName}/${id}`;

/** Screens render at /{section}/vBuild/temp/{screenId}; the generated route is the section-free form. */
export const screenPath = (id: number): string => `/${SCREEN_PAGE_COMPONENT}/${id}`;

/** A screen's page under a section of the menu (`dispose` → /dispose/vBuild/temp/{id}). */
export const screenPathIn = (section: string, id: number): string => `/${trimChar(section, '/')}${screenPath(id)}`;

/** Where 大屏管理 opens a screen of type 1, 3 or 4 to look at it. */
export const screenPreviewPath = (id: number): string => screenPathIn('dev-tools', id);

/**
 * The generic record calls a view's page makes, by the view's id: the low-code addresses the model
 * composes into every list model (a definition may name its own detail, submit, export and import
 * addresses instead).
 */
export const viewCallPaths = (id: number) => ({
  list: `/api/general/list/${id}`,
  detail: '/api/general/formData',
  add: `/api/general/add/${id}`,
  edit: `/api/general/update/${id}`,
  del: `/api/general/delete/${id}`,
  export: `/api/general/export/${id}`,
  import: `/api/general/${id}/import`,
  template: `/api/general/${id}/template`,
  groovy: `/api/general/groovy/${id}`,
  preAdd: `/api/general/preAdd/${id}`,
});

/**
 * `text` without the character `ch` repeated at its start and end. A loop, not /x+$/: a regular
 * expression tries every run of `ch` for the end of the text, which is quadratic on a long run.
 */
export function trimChar(text: string, ch: string, ends: 'start' | 'end' | 'both' = 'both'): string {
  let start = 0;
  let end = text.length;
  if (ends !== 'end') while (start < end && text[start] === ch) start++;
  if (ends !== 'start') while (end > start && text[end - 1] === ch) end--;
  return text.slice(start, end);
}

/** An address without its query and hash (from the first `?` or `#` on). */
export function withoutQuery(address: string): string {
  const cut = address.search(/[?#]/);
  return cut < 0 ? address : address.slice(0, cut);
}

/** A pathname without its trailing slashes; the root stays '/'. */
export const trimPath = (pathname: string): string => trimChar(pathname, '/', 'end') || '/';

/** The page a low-code address draws. */
export type LowcodeAddress = { kind: 'view'; id: number; componentName: string } | { kind: 'screen'; id: number };

const VIEW_ADDRESS = /(?:^|\/)dev-tools\/temp\/page\/([^/]+)\/(\d{1,9})$/;
const SCREEN_ADDRESS = /(?:^|\/)vBuild\/temp\/(\d{1,9})$/;

/** The view or screen an address draws (a query, a hash and trailing slashes are ignored), if it is a low-code page's. */
export function lowcodePageOf(address: string | null | undefined): LowcodeAddress | undefined {
  const path = trimPath(withoutQuery(address ?? ''));
  const view = VIEW_ADDRESS.exec(path);
  if (view) return { kind: 'view', id: Number(view[2]), componentName: view[1] as string };
  const screen = SCREEN_ADDRESS.exec(path);
  if (screen) return { kind: 'screen', id: Number(screen[1]) };
  return undefined;
}

/** The screen an address draws, or undefined. */
export function screenOfPath(address: string | null | undefined): number | undefined {
  const page = lowcodePageOf(address);
  return page?.kind === 'screen' ? page.id : undefined;
}

// ----- the menu tree -----

/** A menu's path below its parent's: absolute paths and links stay as they are; the rest is joined. */
export function joinMenuPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
  if (/^https?:\/\//.test(child)) return child;
  const base = parent.endsWith('/') ? parent.slice(0, -1) : parent;
  return `${base}/${child}`.replace(/\/{2,}/g, '/');
}

/** One node of a menu tree with where it sits: its full path and the nodes above it (with theirs), top first. */
export interface MenuEntry<T> {
  node: T;
  path: string;
  parents: readonly { node: T; path: string }[];
}

type MenuTree<T> = { path?: string | null; children?: readonly T[] | null };

/**
 * Every node of a menu tree, each before its children, with its full path (a node without a path has
 * its parent's). The one walk of a menu tree: the shell's routes, named routes and the menu pickers use it.
 */
export function menuEntries<T extends MenuTree<T>>(
  tree: readonly T[],
  parent = '/',
  parents: readonly { node: T; path: string }[] = [],
): MenuEntry<T>[] {
  const out: MenuEntry<T>[] = [];
  for (const node of tree) {
    const path = node.path ? joinMenuPath(parent, node.path) : parent;
    out.push({ node, path, parents });
    if (node.children?.length) out.push(...menuEntries(node.children, path, [...parents, { node, path }]));
  }
  return out;
}

/** The first node a test accepts, with its place, or undefined. */
export function findMenu<T extends MenuTree<T>>(tree: readonly T[], test: (node: T) => boolean): MenuEntry<T> | undefined {
  return menuEntries(tree).find((e) => test(e.node));
}
