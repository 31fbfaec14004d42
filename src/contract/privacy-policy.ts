/** The agreements the login page shows (user agreement, privacy policy), readable without a session. */
import { z } from 'zod';
import { call, resource } from './define.js';

export const privacyPolicy = resource('privacy-policy', '协议', {
  preview: call('GET', '/api/privacyPolicy/preview', '查看协议', 'public', {
    query: z.object({ type: z.string().optional() }),
    answer: z.object({ status: z.literal(200), data: z.object({ type: z.number(), title: z.string(), content: z.string() }) }),
    errors: ['AGREEMENT_NOT_FOUND'],
    example: { query: { type: '1' } },
  }),
});
