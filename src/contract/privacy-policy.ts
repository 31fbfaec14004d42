/** The agreements the login page shows (user agreement, privacy policy), readable without a session. */
import { z } from 'zod';
import { call, resource } from './define.js';

export const privacyPolicy = resource({
  name: 'privacy-policy',
  title: '协议',
  calls: {
    preview: call({
      method: 'GET',
      path: '/api/privacyPolicy/preview',
      summary: '查看协议',
      access: 'public',
      query: z.object({ type: z.string().optional() }),
      answer: z.object({ status: z.literal(200), data: z.object({ type: z.number(), title: z.string(), content: z.string() }) }),
      errors: ['AGREEMENT_NOT_FOUND'],
      example: { query: { type: '1' } },
    }),
  },
});
