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

export const health = resource({
  name: 'health',
  title: '健康检查',
  calls: {
    get: call({
      method: 'GET',
      path: '/api/health',
      summary: '实例是否就绪（数据库与实例间通知）',
      access: 'public',
      answer: healthAnswer,
      errors: [],
    }),
  },
});
