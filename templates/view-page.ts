import { banner } from './banner.js';

/** generated/views/{id}-{slug}/page.tsx: the list page's model and the component that renders it. */
export interface ViewPageVars {
  source: string;
  title: string;
  viewId: number;
  modelName: string;
  componentName: string;
  schemaName: string;
  recordType: string;
  /** The ListPageModel literal, already printed. */
  model: string;
}

export const viewPageModule = (v: ViewPageVars): string => `${banner(v.source)}
import { ListPage, type ListPageModel } from '@wastegen/engine';
import { ${v.schemaName}, type ${v.recordType} } from './schema';

/** ${v.title} (view ${v.viewId}) */
export const ${v.modelName}: ListPageModel = ${v.model};

export default function ${v.componentName}() {
  return <ListPage<${v.recordType}> model={${v.modelName}} schema={${v.schemaName}} />;
}
`;
