import { banner } from './banner.js';

/** generated/routes.ts: one entry per page, in a fixed order (views, then screens, by id). */
export interface RoutesVars {
  source: string;
  /** Entries, already printed, each `{ ... load: () => import('./…/page') }`. */
  entries: string[];
}

export const routesModule = (v: RoutesVars): string => `${banner(v.source)}
import type { GeneratedRoute } from '@wastegen/engine';

export const generatedRoutes: readonly GeneratedRoute[] = [${v.entries.length ? `\n${v.entries.map((e) => `  ${e},`).join('\n')}\n` : ''}];
`;
