import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { materialsCode } from '../../src/contract/materials-code.js';
import { formatDate } from '../../src/shared/format.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { sendXlsx, writeWorkbook } from '../lowcode/xlsx.js';
import { registerResource, writerOf } from './register.js';

/** QR label codes, made in batches and downloaded as a spreadsheet. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, materialsCode, {
    // Each call stores the codes it makes: for label printers only, and a sheet's worth at a time.
    saveBatch: async (req) => {
      const u = currentUser(req);
      const dept = u.deptId ? await db.selectFrom('sys_dept').select('name').where('id', '=', u.deptId).executeTakeFirst() : undefined;
      const day = formatDate(Date.now(), 'YYYYMMDD');
      const rows = Array.from({ length: req.query.createNum }, () => ({
        code_num: `${day}${randomBytes(5).toString('hex').toUpperCase()}`,
        operate_dept: dept?.name ?? null,
        user_id: u.id,
      }));
      const data = await writerOf(req)
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

    // 下载 of the print page: the list of one batch of the caller's as a spreadsheet.
    download: async (req, reply) => {
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
  });
}
