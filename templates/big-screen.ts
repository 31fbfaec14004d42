import { banner } from './banner.js';

/** generated/screens/{id}-{slug}/config.ts and page.tsx for big screens (type 2). */
export interface BigScreenVars {
  source: string;
  title: string;
  screenId: number;
  configName: string;
  componentName: string;
  /** The BigScreenModel literal, already printed. */
  config: string;
}

export const bigScreenConfigModule = (v: BigScreenVars): string => `${banner(v.source)}
import type { BigScreenModel } from '@wastegen/model';

/** ${v.title} (screen ${v.screenId}): canvas, layout and charts, with the documented defaults filled in. */
export const ${v.configName}: BigScreenModel = ${v.config};
`;

export const bigScreenPageModule = (v: BigScreenVars): string => `${banner(v.source)}
import { BigScreenPage } from '@wastegen/engine';
import { ${v.configName} } from './config';

export default function ${v.componentName}() {
  return <BigScreenPage model={${v.configName}} />;
}
`;
