import { companyApi, companyUpdateBody } from '../../src/contract/company-api.js';
import { type ErrorCode, errorMessage } from '../../src/shared/error-catalogue.js';
import { HIDDEN_IN_NAMES } from '../../src/shared/person-rule.js';
import { isSupervisor, seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser, hasPermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { PHONE_RE } from '../lib/accounts-users.js';
import { parseBody } from '../lib/body.js';
import { companyCodeIs, sameCode } from '../lib/company-codes.js';
import { companyNameTaken, nameLettersAllowed } from '../lib/company-names.js';
import { dictLabels } from '../lib/dict-labels.js';
import { namedTable } from '../lib/named-table.js';
import { registerResource, writerOf } from './register.js';

const CREDIT_CODE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

const emptyToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

/** What a code another company holds answers, by the field that names it. */
export const CODE_TAKEN = {
  creditCode: errorMessage('CREDIT_CODE_TAKEN'),
  bciId: errorMessage('BCI_ID_TAKEN'),
} as const;

/** The unique indexes on company codes, and what a clash on each one answers. */
const CODE_INDEXES: Record<string, ErrorCode> = namedTable({
  company_credit_code_unique: 'CREDIT_CODE_TAKEN',
  company_bci_id_unique: 'BCI_ID_TAKEN',
});

/** The company behind an account, read and updated by its own users; its name only with company:edit. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, companyApi, {
    info: async (req) => {
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
    update: async (req) => {
      const u = currentUser(req);
      const b = parseBody(companyUpdateBody, req.body);
      const isAdmin = u.isAdmin || u.roles.includes('admin');
      const id = isAdmin ? (b.id ?? u.companyId) : u.companyId;
      if (!id) throw badRequest('NO_COMPANY');
      if (!isAdmin && b.id !== undefined && b.id !== u.companyId) throw forbidden('COMPANY_OF_OTHERS');
      const creditCode = emptyToNull(b.creditCode);
      if (creditCode && !CREDIT_CODE.test(creditCode)) throw badRequest('CREDIT_CODE_INVALID');
      const contactPhone = emptyToNull(b.contactPhone);
      // Counterparties and carriers are shown the contact by name: the rule of names holds.
      if (b.contactName && HIDDEN_IN_NAMES.test(b.contactName)) throw badRequest('CONTACT_NAME_HIDDEN_CHARS');
      if (contactPhone && !PHONE_RE.test(contactPhone)) throw badRequest('MOBILE_INVALID');
      const before = await db.selectFrom('company').select('name').where('id', '=', id).executeTakeFirst();
      if (!before) throw notFound('COMPANY_NOT_FOUND');
      if (b.name && b.name !== before.name) {
        // Other companies know it by its name: renaming is for those granted company:edit.
        if (!hasPermission(u.roles, 'company:edit')) throw forbidden('COMPANY_RENAME_DENIED');
        if (HIDDEN_IN_NAMES.test(b.name)) throw badRequest('COMPANY_NAME_HIDDEN_CHARS');
        if (!nameLettersAllowed(b.name)) throw badRequest('COMPANY_NAME_LETTERS');
        if (await companyNameTaken(db, b.name, id)) throw badRequest('COMPANY_NAME_TAKEN');
      }
      // The filling-system token is found by any of a company's codes, without case: a code may name one
      // company only, whichever of its codes another company holds it as, in whatever case.
      const bciId = b.bciId !== undefined ? (emptyToNull(b.bciId) ?? null) : undefined;
      const codeTaken = async (code: string) =>
        !!(await db.selectFrom('company').select('id').where('id', '<>', id).where(companyCodeIs(code)).executeTakeFirst());
      if (creditCode && (await codeTaken(creditCode))) throw badRequest('CREDIT_CODE_TAKEN');
      if (bciId && (await codeTaken(bciId))) throw badRequest('BCI_ID_TAKEN');
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
        if (Object.keys(set).length) await writerOf(req).updateTable('company').set(set).where('id', '=', id).execute();
      } catch (e) {
        // Another company took the code between the check and this write: the unique index says which.
        const clash = e as { code?: string; constraint?: string; message?: string };
        if (clash.code === '23505') {
          const index = Object.keys(CODE_INDEXES).find((k) => clash.constraint === k || clash.message?.includes(k));
          throw badRequest(index ? (CODE_INDEXES[index] as ErrorCode) : 'COMPANY_INFO_DUPLICATE');
        }
        throw e;
      }
      return { status: 200, message: '保存成功' };
    },
  });
}
