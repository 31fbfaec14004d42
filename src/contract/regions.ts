/** Regions: the tree of provinces, cities and districts that city fields and the apply-to-join dialog pick from. */
import { z } from 'zod';
import { call, resource } from './define.js';

export interface RegionNode {
  value: string;
  label: string;
  children?: RegionNode[];
}

export const regionNode: z.ZodType<RegionNode> = z.lazy(() =>
  z.object({ value: z.string(), label: z.string(), children: z.array(regionNode).optional() }),
);

export const regions = resource('regions', '行政区划', {
  // Public: the apply-to-join dialog on the login page picks the company's region before anyone is signed in.
  tree: call('GET', '/api/region/regionTreeList', '行政区划树', 'public', {
    answer: z.array(regionNode),
    errors: [],
  }),
});
