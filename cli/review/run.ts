import { existsSync } from 'node:fs';
import type { DefinitionSet, ReviewItem } from './changes.js';
import { Drawer, type DrawJob, type ReviewPage, reviewApp, type Shot } from './draw.js';

/**
 * Draws the before and after of every changed definition on `concurrency` pages at once, each in a Chromium of its own.
 * Loaded only when something changed, so a review with nothing to draw never starts a browser.
 */

/** Debian's old headless shell: the same engine without the browser's window, a tenth less CPU per picture. */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/** The browser the review draws with: CHROMIUM_PATH, else the headless shell when installed, else Debian's chromium. */
export function reviewBrowser(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium';
}

export interface DrawOptions {
  appDir: string;
  chromium: string;
  concurrency: number;
  progress?: (done: number, total: number) => void;
}

/** Shots by `${kind}-${id}`, before and after; each side drawn with that side's definitions (a screen's views among them). */
export async function drawItems(
  items: readonly ReviewItem[],
  sets: { before: DefinitionSet; after: DefinitionSet },
  options: DrawOptions,
): Promise<Map<string, { before?: Shot[]; after?: Shot[] }>> {
  const appDir = reviewApp(options.appDir);
  const jobs: { key: string; side: 'before' | 'after'; job: DrawJob }[] = [];
  for (const item of items)
    for (const side of ['before', 'after'] as const)
      if (item[side]) jobs.push({ key: `${item.kind}-${item.id}`, side, job: { kind: item.kind, id: item.id, set: sets[side] } });
  const result = new Map<string, { before?: Shot[]; after?: Shot[] }>();
  let next = 0;
  let done = 0;
  // A browser of its own for each page drawn at once (see Drawer.page).
  const drawers: Drawer[] = [];
  try {
    const pages = await Promise.all(
      Array.from({ length: Math.min(options.concurrency, jobs.length) }, async () => {
        const drawer = await Drawer.open(appDir, options.chromium);
        drawers.push(drawer);
        return drawer.page();
      }),
    );
    const worker = async (page: ReviewPage) => {
      while (next < jobs.length) {
        const j = jobs[next++] as (typeof jobs)[number];
        const shots = await page.draw(j.job);
        result.set(j.key, { ...result.get(j.key), [j.side]: shots });
        options.progress?.(++done, jobs.length);
      }
    };
    await Promise.all(pages.map(worker));
    return result;
  } finally {
    await Promise.all(drawers.map((d) => d.close()));
  }
}
