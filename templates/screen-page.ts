import { banner } from './banner.js';

/** generated/screens/{id}-{slug}/page.tsx for form previews (type 3) and containers (types 1 and 4). */
export interface ScreenPageVars {
  source: string;
  title: string;
  screenId: number;
  /** FormPage or ContainerPage */
  engineComponent: 'FormPage' | 'ContainerPage';
  modelType: 'FormPageModel' | 'ContainerPageModel';
  modelName: string;
  componentName: string;
  model: string;
}

export const screenPageModule = (v: ScreenPageVars): string => `${banner(v.source)}
import { ${v.engineComponent}, type ${v.modelType} } from '@wastegen/engine';

/** ${v.title} (screen ${v.screenId}) */
export const ${v.modelName}: ${v.modelType} = ${v.model};

export default function ${v.componentName}() {
  return <${v.engineComponent} model={${v.modelName}} />;
}
`;
