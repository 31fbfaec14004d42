/** Health and readiness for a load balancer: 200 when ready, 503 (with the same fields) when not. */
import { z } from 'zod';
import { call, resource } from './define.js';

export const healthAnswer = z.object({
  status: z.number(),
  message: z.string(),
  database: z.enum(['up', 'down']),
  bus: z.string(),
  instance: z.string(),
});

export const health = resource('health', '健康检查', {
  get: call('GET', '/api/health', '实例是否就绪（数据库与实例间通知）', 'public', {
    answer: healthAnswer,
    errors: [],
  }),
});
