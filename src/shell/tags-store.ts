/**
 * The tag bar's visited pages: pinned tags first and never closed, then the
 * pages in the order they were first opened. Kept in sessionStorage per user so that a reload
 * keeps them, and a different user in the same browser tab starts afresh.
 */

import { useSyncExternalStore } from 'react';
import { APP_PATHS } from '../shared/app-paths';
import { createListeners } from '../shared/listeners';

export interface Tag {
  /** Pathname; one tag per pathname. */
  path: string;
  /** Pathname with the query of the last visit: what clicking the tag opens. */
  fullPath: string;
  title: string;
  affix: boolean;
  noCache: boolean;
}

// ─── Pure rules ─────────────────────────────────────────────────────────────────────────────

/** Pinned tags first, in the given order, then the rest; a pinned path is never listed twice. */
export function withAffix(tags: readonly Tag[], affix: readonly Tag[]): Tag[] {
  const pinned = affix.map((a) => {
    const seen = tags.find((t) => t.path === a.path);
    return seen ? { ...seen, affix: true, title: a.title } : a;
  });
  const pinnedPaths = new Set(pinned.map((t) => t.path));
  return [...pinned, ...tags.filter((t) => !pinnedPaths.has(t.path))];
}

/** Adds a visited page, or updates its query and title; returns the same array when nothing changed. */
export function addTag(tags: readonly Tag[], tag: Tag): readonly Tag[] {
  const i = tags.findIndex((t) => t.path === tag.path);
  if (i < 0) return [...tags, tag];
  const old = tags[i] as Tag;
  if (old.fullPath === tag.fullPath && old.title === tag.title && old.noCache === tag.noCache) return tags;
  const next = [...tags];
  next[i] = { ...old, fullPath: tag.fullPath, title: tag.title, noCache: tag.noCache };
  return next;
}

/** The tag to open when `path` is closed: its right neighbour, else its left one. */
export function neighbourOf(tags: readonly Tag[], path: string): Tag | undefined {
  const i = tags.findIndex((t) => t.path === path);
  if (i < 0) return tags[tags.length - 1];
  return tags[i + 1] ?? tags[i - 1];
}

export function closeTag(tags: readonly Tag[], path: string): readonly Tag[] {
  const tag = tags.find((t) => t.path === path);
  if (!tag || tag.affix) return tags;
  return tags.filter((t) => t !== tag);
}

export function closeOtherTags(tags: readonly Tag[], path: string): readonly Tag[] {
  return tags.filter((t) => t.affix || t.path === path);
}

export function closeAllTags(tags: readonly Tag[]): readonly Tag[] {
  return tags.filter((t) => t.affix);
}

/**
 * Where to go after closing tags: undefined to stay (the page shown is still open, or has no tag,
 * like /401); else `preferred` when it survived, else the last open tag.
 */
export function afterClose(before: readonly Tag[], after: readonly Tag[], activePath: string, preferred?: Tag): string | undefined {
  if (after.some((t) => t.path === activePath)) return undefined;
  if (!before.some((t) => t.path === activePath)) return undefined;
  const target = preferred && after.some((t) => t.path === preferred.path) ? preferred : after[after.length - 1];
  return target?.fullPath ?? APP_PATHS.home;
}

// ─── The store ──────────────────────────────────────────────────────────────────────────────

const STORAGE_KEY = 'wastegen.tags';

interface State {
  user: string | null;
  tags: readonly Tag[];
  /** Bumped by 刷新: the cached page of that path is dropped and mounted afresh. */
  generations: Readonly<Record<string, number>>;
}

let state: State = { user: null, tags: [], generations: {} };
const listeners = createListeners();

function isTag(v: unknown): v is Tag {
  const t = v as Tag;
  return Boolean(t) && typeof t.path === 'string' && typeof t.fullPath === 'string' && typeof t.title === 'string';
}

function read(user: string): Tag[] {
  try {
    const raw = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as { user?: string; tags?: unknown[] } | null;
    if (!raw || raw.user !== user || !Array.isArray(raw.tags)) return [];
    return raw.tags.filter(isTag).map((t) => ({ ...t, affix: Boolean(t.affix), noCache: Boolean(t.noCache) }));
  } catch {
    return [];
  }
}

function write(): void {
  if (!state.user) return;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ user: state.user, tags: state.tags }));
  } catch {
    // The tags still work for this page load.
  }
}

function set(patch: Partial<State>): void {
  state = { ...state, ...patch };
  write();
  listeners.emit();
}

export const tagsStore = {
  get: (): State => state,
  subscribe: listeners.subscribe,
  /** Starts the user's tag list: restored from this browser tab, pinned tags in front. */
  init(user: string, affix: readonly Tag[]): void {
    const tags = state.user === user ? state.tags : read(user);
    state = { ...state, user };
    set({ tags: withAffix(tags, affix) });
  },
  visit(tag: Tag): void {
    const tags = addTag(state.tags, tag);
    if (tags !== state.tags) set({ tags });
  },
  /** Keeps only the tags `keep` accepts (pinned ones always), e.g. after the menus changed. */
  retain(keep: (tag: Tag) => boolean): void {
    const tags = state.tags.filter((t) => t.affix || keep(t));
    if (tags.length !== state.tags.length) set({ tags });
  },
  close(path: string): readonly Tag[] {
    set({ tags: closeTag(state.tags, path) });
    return state.tags;
  },
  closeOthers(path: string): readonly Tag[] {
    set({ tags: closeOtherTags(state.tags, path) });
    return state.tags;
  },
  closeAll(): readonly Tag[] {
    set({ tags: closeAllTags(state.tags) });
    return state.tags;
  },
  refresh(path: string): void {
    set({ generations: { ...state.generations, [path]: (state.generations[path] ?? 0) + 1 } });
  },
};

export function useTags(): State {
  return useSyncExternalStore(tagsStore.subscribe, tagsStore.get, tagsStore.get);
}
