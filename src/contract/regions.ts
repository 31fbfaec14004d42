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

export const regions = resource({
  name: 'regions',
  title: '行政区划',
  calls: {
    // Public: the apply-to-join dialog on the login page picks the company's region before anyone is signed in.
    tree: call({
      method: 'GET',
      path: '/api/region/regionTreeList',
      summary: '行政区划树',
      access: 'public',
      answer: z.array(regionNode),
      errors: [],
    }),
  },
});
