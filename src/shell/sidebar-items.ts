/**
 * The sidebar's entries from the menus' build call (`menus.build` of the contract) tree (eladmin's rules): hidden routes are left
 * out, a directory is a submenu, and a directory with a single visible child shows that child
 * directly unless it is marked alwaysShow. Keys are full paths. Pure, so the rules are unit-tested.
 */
import type { MenuRoute } from '../session/session-store';
import { joinPath } from './menu-routes';

export interface SideItem {
  /** Full path: a page's route, or a directory's path (the submenu key). */
  key: string;
  title: string;
  icon: string | null;
  /** An http(s) link: opened in a new window, not routed. */
  external: boolean;
  /** Present on submenus only. */
  children?: SideItem[];
}

const isExternal = (path: string) => /^https?:\/\//.test(path);

export function sidebarItems(menus: readonly MenuRoute[], parent = '/'): SideItem[] {
  const out: SideItem[] = [];
  for (const m of menus) {
    if (m.hidden) continue;
    const path = joinPath(parent, m.path);
    const kids = m.children ?? [];
    if (kids.length === 0) {
      out.push({ key: path, title: m.meta.title, icon: m.meta.icon, external: isExternal(path) });
      continue;
    }
    const showing = kids.filter((k) => !k.hidden);
    const only = showing.length === 1 ? showing[0] : undefined;
    if (only && !only.children?.length && !m.alwaysShow) {
      const childPath = joinPath(path, only.path);
      out.push({ key: childPath, title: only.meta.title, icon: only.meta.icon ?? m.meta.icon, external: isExternal(childPath) });
      continue;
    }
    const children = sidebarItems(kids, path);
    // A directory whose pages are all hidden has nothing to open.
    if (children.length) out.push({ key: path, title: m.meta.title, icon: m.meta.icon, external: false, children });
  }
  return out;
}

/** Every page the sidebar shows (what the header search and the home shortcuts offer). */
export function visiblePages(
  items: readonly SideItem[],
  trail: string[] = [],
): { path: string; title: string; icon: string | null; trail: string[] }[] {
  return items.flatMap((i) =>
    i.children
      ? visiblePages(i.children, [...trail, i.title])
      : [{ path: i.key, title: i.title, icon: i.icon, trail: [...trail, i.title] }],
  );
}

/**
 * The submenus open after the user toggled one. With unique-open, opening a submenu closes every
 * other branch: only the newly opened key and its ancestors (path prefixes) stay open.
 */
export function nextOpenKeys(prev: readonly string[], next: readonly string[], uniqueOpened: boolean): string[] {
  if (!uniqueOpened) return [...next];
  const opened = next.find((k) => !prev.includes(k));
  if (!opened) return [...next];
  return next.filter((k) => k === opened || opened.startsWith(`${k}/`));
}
