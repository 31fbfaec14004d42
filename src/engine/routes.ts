import type { ComponentType, LazyExoticComponent } from 'react';

/** One entry of generated/routes.ts. */
export interface GeneratedRoute {
  path: string;
  kind: 'view' | 'screen';
  /** View id or screen id. */
  id: number;
  title: string;
  /** Content hash of the definition the page was generated from (src/model/canonical.ts). */
  hash: string;
  /** 0 draft or disabled, 1 published or enabled. */
  status: number;
  component: LazyExoticComponent<ComponentType>;
}
