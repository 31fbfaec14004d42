import { z } from 'zod';
import { roundTo } from './format.js';
import { INT4_MAX, NUMERIC_LIMIT } from './limits.js';

/**
 * The manual disposal order (新增手工处置单): its fields, rules and messages, judged the same way by the
 * dialog and by the server's add call of the manual order. Quantity (tons) and price take 3
 * decimals; amount = price × quantity to 5 decimals, computed, never typed. Prepayment defaults to no (0);
 * its amount is required only for yes (1). The phones are optional and must be mobile numbers when given.
 */

export const MANUAL_ORDER_MESSAGES = {
  types: '请选择处置类型',
  partyACompany: '请选择签约企业',
  unit: '请选择计量单位',
  wasteCategoryCode: '请输入危废代码',
  wasteCategoryName: '请输入危废名称',
  quantity: '请输入数量',
  price: '请输入单价',
  prepayPrice: '请输入预付金额',
  phone: '手机号格式错误',
  quantityPositive: '数量必须大于0',
  priceNotNegative: '单价不能为负数',
  prepayNotNegative: '预付金额不能为负数',
  threeDecimals: '最多保留3位小数',
  date: '日期格式应为 YYYY-MM-DD',
  amountRange: '金额超出范围',
} as const;

/** 11 digits, 1 then 3–9. */
export const MOBILE_RE = /^1[3-9]\d{9}$/;
export const QUANTITY_DECIMALS = 3;
export const AMOUNT_DECIMALS = 5;
/** needPrepay values. */
export const PREPAY_NO = 0;
export const PREPAY_YES = 1;

/** amount = price × quantity, rounded to 5 decimals; null until both are numbers. */
export function manualOrderAmount(price: unknown, quantity: unknown): number | null {
  const p = typeof price === 'string' && price.trim() !== '' ? Number(price) : price;
  const q = typeof quantity === 'string' && quantity.trim() !== '' ? Number(quantity) : quantity;
  if (typeof p !== 'number' || typeof q !== 'number' || !Number.isFinite(p) || !Number.isFinite(q)) return null;
  return roundTo(p * q, AMOUNT_DECIMALS);
}

/** Whether `YYYY-MM-DD` names a day on the calendar (2026-02-30 and 9999-99-99 do not). */
function isCalendarDay(s: string): boolean {
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Decimal places of a number as written (1.25 → 2, 1e-7 → 7). */
function decimals(n: number): number {
  const [mantissa = '', exp = '0'] = String(n).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exp));
}

/** Required text: a message when blank. */
const required = (message: string, max = 255) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z.string({ message }).trim().min(1, message).max(max, `长度不能超过${max}个字符`),
  );

const optionalText = (max = 255) =>
  z.preprocess(
    (v) => (isBlank(v) ? undefined : typeof v === 'number' ? String(v) : v),
    z.string().trim().max(max, `长度不能超过${max}个字符`).optional(),
  );

const optionalId = z.preprocess((v) => (isBlank(v) ? undefined : v), z.coerce.number().int().positive().max(INT4_MAX).optional());

/** A number with at most 3 decimals; `required` is its blank message. */
const decimal3 = (requiredMessage: string, min: { value: number; inclusive: boolean; message: string }) =>
  z.preprocess(
    (v) => (isBlank(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
    z
      .number({ message: requiredMessage })
      .refine((n) => Number.isFinite(n), requiredMessage)
      .refine((n) => (min.inclusive ? n >= min.value : n > min.value), min.message)
      .refine((n) => decimals(n) <= QUANTITY_DECIMALS, MANUAL_ORDER_MESSAGES.threeDecimals),
  );

const optionalPhone = z.preprocess(
  (v) => (isBlank(v) ? undefined : String(v).trim()),
  z.string().regex(MOBILE_RE, MANUAL_ORDER_MESSAGES.phone).optional(),
);

export const manualOrderSchema = z
  .object({
    types: required(MANUAL_ORDER_MESSAGES.types, 40),
    needPrepay: z.preprocess((v) => (isBlank(v) ? PREPAY_NO : Number(v)), z.union([z.literal(PREPAY_NO), z.literal(PREPAY_YES)])),
    prepayPrice: z.unknown().optional(),
    contractId: optionalId,
    contractNo: optionalText(64),
    partyACompany: required(MANUAL_ORDER_MESSAGES.partyACompany, 64),
    partyACompanyName: optionalText(),
    partyAName: optionalText(100),
    partyAPhone: optionalPhone,
    partyARegion: optionalText(),
    partyARegionFmt: optionalText(),
    partyAAddress: optionalText(512),
    partyAUserId: optionalId,
    partyBWarehouseId: optionalId,
    partyBRegion: optionalText(),
    partyBRegionFmt: optionalText(),
    partyBAddress: optionalText(512),
    partyBName: optionalText(100),
    partyBPhone: optionalPhone,
    partyBUserId: optionalId,
    wasteCategoryCode: required(MANUAL_ORDER_MESSAGES.wasteCategoryCode, 20),
    wasteCategoryName: required(MANUAL_ORDER_MESSAGES.wasteCategoryName),
    quantity: decimal3(MANUAL_ORDER_MESSAGES.quantity, { value: 0, inclusive: false, message: MANUAL_ORDER_MESSAGES.quantityPositive }),
    unit: required(MANUAL_ORDER_MESSAGES.unit, 20),
    price: decimal3(MANUAL_ORDER_MESSAGES.price, { value: 0, inclusive: true, message: MANUAL_ORDER_MESSAGES.priceNotNegative }),
    processId: optionalId,
    processIdFmt: optionalText(),
    processTypeId: optionalText(40),
    processCode: optionalText(20),
    processSubId: optionalId,
    processSubIdFmt: optionalText(),
    processTypeSubId: optionalText(40),
    processSubCode: optionalText(20),
    packageType: optionalText(40),
    estDisposalTime: z.preprocess(
      (v) => (isBlank(v) ? undefined : String(v).trim()),
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, MANUAL_ORDER_MESSAGES.date)
        .refine(isCalendarDay, MANUAL_ORDER_MESSAGES.date)
        .optional(),
    ),
    remark: optionalText(1024),
    payee: optionalText(),
    payer: optionalText(),
  })
  .superRefine((v, c) => {
    // Each factor within its range, the product may still not be: too large for its column, or for rounding.
    const amount = manualOrderAmount(v.price, v.quantity);
    if (amount !== null && !(Math.abs(amount) < NUMERIC_LIMIT))
      c.addIssue({ code: 'custom', path: ['price'], message: MANUAL_ORDER_MESSAGES.amountRange });
    if (v.needPrepay !== PREPAY_YES) return;
    const p = v.prepayPrice;
    if (isBlank(p)) {
      c.addIssue({ code: 'custom', path: ['prepayPrice'], message: MANUAL_ORDER_MESSAGES.prepayPrice });
      return;
    }
    const n = typeof p === 'string' ? Number(p.trim()) : p;
    if (typeof n !== 'number' || !Number.isFinite(n))
      c.addIssue({ code: 'custom', path: ['prepayPrice'], message: MANUAL_ORDER_MESSAGES.prepayPrice });
    else if (n < 0) c.addIssue({ code: 'custom', path: ['prepayPrice'], message: MANUAL_ORDER_MESSAGES.prepayNotNegative });
    else if (decimals(n) > QUANTITY_DECIMALS)
      c.addIssue({ code: 'custom', path: ['prepayPrice'], message: MANUAL_ORDER_MESSAGES.threeDecimals });
  })
  .transform((v) => {
    const prepay = v.needPrepay === PREPAY_YES ? Number(typeof v.prepayPrice === 'string' ? v.prepayPrice.trim() : v.prepayPrice) : null;
    return { ...v, prepayPrice: prepay, amount: manualOrderAmount(v.price, v.quantity) as number };
  });

export type ManualOrder = z.output<typeof manualOrderSchema>;

/** Each field's first problem, in the order the fields are declared. */
export function manualOrderProblems(input: unknown): { field: string; message: string }[] {
  const r = manualOrderSchema.safeParse(input);
  if (r.success) return [];
  const order = Object.keys(manualOrderSchema.in.shape);
  const seen = new Map<string, string>();
  for (const issue of r.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!seen.has(field)) seen.set(field, issue.message);
  }
  return [...seen].map(([field, message]) => ({ field, message })).sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field));
}
