import { type ReactElement, useRef } from 'react';
import { type Location, type NavigationType, UNSAFE_LocationContext, useLocation, useNavigationType, useOutlet } from 'react-router-dom';
import type { PageInfo } from './route-handles';
import { useTags } from './tags-store';

interface Entry {
  element: ReactElement | null;
  /** What the page's useLocation() answers: its own address, not the one shown now. */
  context: { location: Location; navigationType: NavigationType };
  generation: number;
}

/**
 * The page area with the tag bar's cache: a page that has an open tag stays mounted, hidden with
 * display: none, while the user is on another tag, as Vue's keep-alive did for the original app:
 * its form input, scroll position, query and loaded data survive, and nothing is fetched again on
 * the way back. (React's <Activity> was tried first: it runs the page's effects again each time the
 * page is shown, and pages that reload on mount — the low-code pages do — lost their state.)
 * Pages marked noCache, pages without a tag, and every page while the tag bar is off mount afresh
 * on each visit. Closing a tag drops its page; 刷新 (via /redirect) bumps its generation, which
 * remounts it.
 *
 * Each kept page sees its own location, so a menu page that reads the path does not turn into the
 * page the user switched to while it is hidden.
 */
export function PageCache({ page, enabled }: { page: PageInfo | null; enabled: boolean }) {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const { tags, generations } = useTags();
  const cache = useRef(new Map<string, Entry>()).current;

  const current = page?.path;
  const cacheable = Boolean(enabled && page && !page.noCache);
  const open = new Set(tags.map((t) => t.path));
  for (const [path, entry] of cache) {
    const stale = (generations[path] ?? 0) !== entry.generation;
    const closed = !open.has(path) && !(cacheable && path === current);
    if (!enabled || stale || closed) cache.delete(path);
  }
  if (cacheable && current) {
    const kept = cache.get(current);
    const context = kept && kept.context.location === location ? kept.context : { location, navigationType };
    cache.set(current, { element: outlet, context, generation: generations[current] ?? 0 });
  }

  return (
    <>
      {[...cache].map(([path, entry]) => {
        const shown = cacheable && path === current;
        return (
          <div key={`${path}#${entry.generation}`} className="wg-page" hidden={!shown} style={{ display: shown ? 'contents' : 'none' }}>
            <UNSAFE_LocationContext.Provider value={entry.context}>{entry.element}</UNSAFE_LocationContext.Provider>
          </div>
        );
      })}
      {!cacheable && (
        <div key={location.pathname} className="wg-page" style={{ display: 'contents' }}>
          {outlet}
        </div>
      )}
    </>
  );
}
