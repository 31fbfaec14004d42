/** The entry site a host name is: the login page reads it before anyone signs in. */
import { z } from 'zod';
import { SITE_KINDS } from '../shared/site.js';
import { call, resource } from './define.js';

export const siteAnswer = z.object({
  kind: z.enum(SITE_KINDS),
  label: z.string(),
  color: z.string(),
  host: z.string(),
  systemName: z.string().nullable(),
});

export const site = resource('site', '入口站点', {
  get: call('GET', '/api/site', '当前主机名对应的入口站点及系统名称', 'public', {
    answer: siteAnswer,
    errors: [],
  }),
});
