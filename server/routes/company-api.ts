import { z } from 'zod';
import { isSupervisor, seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser, hasPermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { PHONE_RE } from '../lib/accounts-users.js';
import { parseBody } from '../lib/body.js';
import { companyCodeIs, sameCode } from '../lib/company-codes.js';
import { dictLabels } from '../lib/dict-labels.js';
import { answers, ok } from '../lib/route.js';
import { dbId, nullableText } from '../lib/sql.js';

/**
 * /api/companyApi: the company behind an account (and whether the dashboard lists its filling-system
 * entries), read and updated by its own users; its name only by those holding company:edit.
 */

const companyInfo = z.object({
  id: z.number().nullable(),
  ...nullableText(
    'name',
    'type',
    'typeLabel',
    'creditCode',
    'bciId',
    'deptCode',
    'region',
    'regionFmt',
    'address',
    'contactName',
    'contactPhone',
  ),
  status: z.number().nullable(),
  /** Whether the dashboard lists the filling-system entries: not the supervisory department, and a company id (bciId) on file. */
  fillingEntry: z.boolean(),
});

const CREDIT_CODE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;
const optionalText = (max: number, message: string) => z.string().trim().max(max, message).nullish();

const updateBody = z.object({
  id: dbId.optional(),
  name: z.string().trim().min(1, '企业名称不能为空').max(255, '企业名称不能超过255个字符').optional(),
  creditCode: optionalText(18, '统一社会信用代码格式不正确'),
  bciId: optionalText(64, '企业编号不能超过64个字符'),
  region: optionalText(255, '地区过长'),
  regionFmt: optionalText(255, '地区过长'),
  address: optionalText(512, '地址不能超过512个字符'),
  contactName: optionalText(100, '联系人不能超过100个字符'),
  contactPhone: optionalText(20, '手机号格式错误'),
});

const emptyToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

export const CODE_TAKEN = {
  creditCode: '该统一社会信用代码已被其他企业使用',
  bciId: '该企业编号已被其他企业使用',
} as const;

/** The unique indexes on company codes, and what a clash on each one answers. */
const CODE_INDEXES: Record<string, string> = {
  company_credit_code_unique: CODE_TAKEN.creditCode,
  company_bci_id_unique: CODE_TAKEN.bciId,
};

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  app.get(
    '/api/companyApi/info',
    answers({ session: true }, companyInfo, { querystring: z.object({ deptCode: z.string().max(64).optional() }) }),
    async (req) => {
      const u = currentUser(req);
      const asked = req.query.deptCode?.trim();
      let q = db.selectFrom('company').selectAll();
      // Those who see every company may ask for any company's code; everyone else gets their own company.
      if (seesAll(u) && asked && asked.toLowerCase() !== u.deptCode?.toLowerCase()) q = q.where(sameCode('dept_code', asked));
      else q = q.where('id', '=', u.companyId ?? -1);
      const c = await q.orderBy('id').executeTakeFirst();
      const types = await dictLabels(db, 'companyType');
      return {
        id: c?.id ?? null,
        name: c?.name ?? null,
        type: c?.type ?? null,
        typeLabel: c ? (types.get(c.type) ?? null) : null,
        creditCode: c?.credit_code ?? null,
        bciId: c?.bci_id ?? null,
        deptCode: c?.dept_code ?? null,
        region: c?.region ?? null,
        regionFmt: c?.region_fmt ?? null,
        address: c?.address ?? null,
        contactName: c?.contact_name ?? null,
        contactPhone: c?.contact_phone ?? null,
        status: c?.status ?? null,
        fillingEntry: !isSupervisor(u) && !!c?.bci_id,
      };
    },
  );

  app.post(
    '/api/companyApi/update',
    answers(
      {
        session: true,
        log: '修改企业信息',
      },
      ok,
    ),
    async (req) => {
      const u = currentUser(req);
      const b = parseBody(updateBody, req.body);
      const isAdmin = u.isAdmin || u.roles.includes('admin');
      const id = isAdmin ? (b.id ?? u.companyId) : u.companyId;
      if (!id) throw badRequest('NO_COMPANY');
      if (!isAdmin && b.id !== undefined && b.id !== u.companyId) throw forbidden('COMPANY_OF_OTHERS');
      const creditCode = emptyToNull(b.creditCode);
      if (creditCode && !CREDIT_CODE.test(creditCode)) throw badRequest('CREDIT_CODE_INVALID');
      const contactPhone = emptyToNull(b.contactPhone);
      if (contactPhone && !PHONE_RE.test(contactPhone)) throw badRequest('MOBILE_INVALID');
      const before = await db.selectFrom('company').select('name').where('id', '=', id).executeTakeFirst();
      if (!before) throw notFound('COMPANY_NOT_FOUND');
      if (b.name && b.name !== before.name) {
        // Other companies know it by its name: renaming is for those granted company:edit.
        if (!hasPermission(u.roles, 'company:edit')) throw forbidden('COMPANY_RENAME_DENIED');
        const taken = await db.selectFrom('company').select('id').where('name', '=', b.name).where('id', '<>', id).executeTakeFirst();
        if (taken) throw badRequest('COMPANY_NAME_TAKEN');
      }
      // The filling-system token is found by any of a company's codes, without case: a code may name one
      // company only, whichever of its codes another company holds it as, in whatever case.
      const bciId = b.bciId !== undefined ? (emptyToNull(b.bciId) ?? null) : undefined;
      const codeTaken = async (code: string) =>
        !!(await db.selectFrom('company').select('id').where('id', '<>', id).where(companyCodeIs(code)).executeTakeFirst());
      if (creditCode && (await codeTaken(creditCode))) throw badRequest(CODE_TAKEN.creditCode);
      if (bciId && (await codeTaken(bciId))) throw badRequest(CODE_TAKEN.bciId);
      const set = {
        ...(b.name ? { name: b.name } : {}),
        ...(creditCode !== undefined ? { credit_code: creditCode } : {}),
        ...(bciId !== undefined ? { bci_id: bciId } : {}),
        ...(b.region !== undefined ? { region: emptyToNull(b.region) ?? null } : {}),
        ...(b.regionFmt !== undefined ? { region_fmt: emptyToNull(b.regionFmt) ?? null } : {}),
        ...(b.address !== undefined ? { address: emptyToNull(b.address) ?? null } : {}),
        ...(b.contactName !== undefined ? { contact_name: emptyToNull(b.contactName) ?? null } : {}),
        ...(contactPhone !== undefined ? { contact_phone: contactPhone } : {}),
      };
      try {
        if (Object.keys(set).length) await db.updateTable('company').set(set).where('id', '=', id).execute();
      } catch (e) {
        // Another company took the code between the check and this write: the unique index says which.
        const clash = e as { code?: string; constraint?: string; message?: string };
        if (clash.code === '23505') {
          const index = Object.keys(CODE_INDEXES).find((k) => clash.constraint === k || clash.message?.includes(k));
          throw badRequest(index ? (CODE_INDEXES[index] as string) : '企业信息与其他企业重复');
        }
        throw e;
      }
      return { status: 200, message: '保存成功' };
    },
  );
}
