import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import { formatDate } from '../../src/shared/format.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { answers } from '../lib/route.js';
import { wireTimeText } from '../lib/sql.js';
import { sendXlsx, writeWorkbook } from '../lowcode/xlsx.js';

/** Most codes one call makes: as many as the 打印二维码 page prints on one sheet (its MAX_LABELS). */
const MAX_LABELS = 500;
/** The 打印二维码 page's permission: its menu grants it to the roles that print labels. */
export const LABEL_PRINT_PERMISSION = 'qrcode:print';

/** /api/materialsCode: QR label codes, made in batches and downloaded as a spreadsheet. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  // Each call stores the codes it makes: for label printers only, and a sheet's worth at a time.
  app.get(
    '/api/materialsCode/saveBatch',
    answers(
      { permission: LABEL_PRINT_PERMISSION },
      z.object({
        status: z.number(),
        data: z.array(z.object({ codeNum: z.string(), operateDept: z.string().nullable(), createTime: z.string() })),
      }),
      {
        querystring: z.object({
          createNum: z.coerce.number().int().min(1, '请输入生成数量').max(MAX_LABELS, `一次最多生成${MAX_LABELS}个`),
        }),
      },
    ),
    async (req) => {
      const u = currentUser(req);
      const dept = u.deptId ? await db.selectFrom('sys_dept').select('name').where('id', '=', u.deptId).executeTakeFirst() : undefined;
      const day = formatDate(Date.now(), 'YYYYMMDD');
      const rows = Array.from({ length: req.query.createNum }, () => ({
        code_num: `${day}${randomBytes(5).toString('hex').toUpperCase()}`,
        operate_dept: dept?.name ?? null,
        user_id: u.id,
      }));
      const data = await db
        .insertInto('materials_code')
        .values(rows)
        .returning([
          'code_num as codeNum',
          'operate_dept as operateDept',
          sql<string>`to_char(create_time, 'YYYY-MM-DD HH24:MI:SS')`.as('createTime'),
        ])
        .execute();
      return { status: 200, data };
    },
  );

  // 下载 of the print page: the list of one batch as a spreadsheet. A batch is one saveBatch call:
  // its codes share the user and the createTime it answered.
  app.get(
    '/api/materialsCode/download',
    {
      config: { session: true },
      schema: {
        querystring: z.object({
          createTime: wireTimeText('createTime 应为 YYYY-MM-DD HH:mm:ss'),
        }),
      },
    },
    async (req, reply) => {
      const u = currentUser(req);
      const rows = await db
        .selectFrom('materials_code')
        .select([
          'code_num as codeNum',
          'operate_dept as operateDept',
          sql<string>`to_char(create_time, 'YYYY-MM-DD HH24:MI:SS')`.as('createTime'),
        ])
        .where('user_id', '=', u.id)
        .where(sql<boolean>`date_trunc('second', create_time) = ${req.query.createTime}::timestamp`)
        .orderBy('id')
        .execute();
      if (!rows.length) throw notFound('LABEL_BATCH_NOT_FOUND');
      const data = rows.map((r) => [r.codeNum, r.operateDept ?? '', r.createTime, `${r.codeNum}_${r.operateDept ?? ''}_${r.createTime}`]);
      const name = `二维码清单_${req.query.createTime.replace(/\D/g, '')}.xlsx`;
      return sendXlsx(reply, name, await writeWorkbook('二维码清单', ['编码', '操作部门', '生成时间', '二维码内容'], data));
    },
  );
}
