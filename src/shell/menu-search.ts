/**
 * The header search over the pages the sidebar shows: fuzzy, threshold 0.4,
 * title weight 0.7 and path weight 0.3. The title key holds the whole menu trail, so typing a
 * section's name (危废管理) lists its pages too.
 */
import Fuse from 'fuse.js';

export interface SearchablePage {
  path: string;
  title: string;
  /** Menu titles from the top-level section down to the page. */
  trail: string[];
}

export interface MenuSearch {
  search(query: string, limit?: number): SearchablePage[];
}

export function createMenuSearch(pages: readonly SearchablePage[]): MenuSearch {
  const fuse = new Fuse(pages, {
    shouldSort: true,
    threshold: 0.4,
    location: 0,
    distance: 100,
    minMatchCharLength: 1,
    keys: [
      { name: 'title', weight: 0.7, getFn: (p) => p.trail },
      { name: 'path', weight: 0.3 },
    ],
  });
  return {
    search(query, limit = 20) {
      const q = query.trim();
      if (!q) return [];
      return fuse.search(q, { limit }).map((r) => r.item);
    },
  };
}
