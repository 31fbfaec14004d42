/** The site's daily page views and distinct addresses: counted by a public call, read by signed-in accounts. */
import { z } from 'zod';
import { call, resource } from './define.js';

export const visits = resource('visits', '访问统计', {
  record: call('POST', '/api/visits', '记录一次访问', 'public', {
    answer: z.object({ status: z.literal(200), message: z.string() }),
    errors: [],
  }),
  summary: call('GET', '/api/visits', '今日及近七日的访问量与IP数', 'session', {
    answer: z.object({ newIp: z.number(), newVisits: z.number(), recentIp: z.number(), recentVisits: z.number() }),
    errors: [],
  }),
  chart: call('GET', '/api/visits/chartData', '近七日每日的访问量与IP数', 'session', {
    answer: z.object({ weekDays: z.array(z.string()), visitsData: z.array(z.number()), ipData: z.array(z.number()) }),
    errors: [],
  }),
});
