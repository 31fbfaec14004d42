/** The query of the option lists about a company: the company (for those who see all) and a page that is ignored. */
import { z } from 'zod';
import { optionalIdOf, pageFields } from './paging.js';

/** Option lists answer every row; page and size are accepted for the callers that send them. */
export const companyListQuery = z.object({ companyId: optionalIdOf('企业编号不正确'), ...pageFields });
