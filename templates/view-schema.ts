import { banner } from './banner.js';

/** generated/views/{id}-{slug}/schema.ts: the form's zod schema and the record type inferred from it. */
export interface ViewSchemaVars {
  source: string;
  /** Comment text, already made safe. */
  title: string;
  viewId: number;
  schemaName: string;
  recordType: string;
  /** `rules.form(...)` call, already printed. */
  schema: string;
}

export const viewSchemaModule = (v: ViewSchemaVars): string => `${banner(v.source)}
import { rules } from '@wastegen/model';
import type { z } from 'zod';

/** ${v.title} (view ${v.viewId}): the values its add and edit forms submit. */
export const ${v.schemaName} = ${v.schema};

export type ${v.recordType} = z.infer<typeof ${v.schemaName}>;
`;
