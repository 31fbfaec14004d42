/**
 * QR label codes (打印二维码): made and stored in batches for the label printers, and one batch's list
 * downloaded as a spreadsheet by the user who made it. A batch is one saveBatch call: its codes share
 * the user and the createTime it answered.
 */
import { z } from 'zod';
import { call, FILE, resource } from './define.js';
import { wireTimeText } from './fields.js';

/** Most codes one call makes: as many as the 打印二维码 page prints on one sheet. */
export const MAX_LABELS = 500;
/** The 打印二维码 page's permission: its menu grants it to the roles that print labels. */
export const LABEL_PRINT_PERMISSION = 'qrcode:print';

export const labelCode = z.object({ codeNum: z.string(), operateDept: z.string().nullable(), createTime: z.string() });
export type LabelCode = z.infer<typeof labelCode>;

export const materialsCode = resource('materials-code', '二维码标签', {
  saveBatch: call('GET', '/api/materialsCode/saveBatch', '生成并保存一批二维码', LABEL_PRINT_PERMISSION, {
    query: z.object({
      createNum: z.coerce.number().int().min(1, '请输入生成数量').max(MAX_LABELS, `一次最多生成${MAX_LABELS}个`),
    }),
    answer: z.object({ status: z.number(), data: z.array(labelCode) }),
    errors: [],
    example: { query: { createNum: 1 } },
  }),
  download: call('GET', '/api/materialsCode/download', '下载一批二维码的清单', 'session', {
    query: z.object({ createTime: wireTimeText('createTime 应为 YYYY-MM-DD HH:mm:ss') }),
    answer: FILE,
    errors: ['LABEL_BATCH_NOT_FOUND'],
    example: { query: { createTime: '2000-01-01 00:00:00' }, refuses: 'LABEL_BATCH_NOT_FOUND' },
  }),
});
