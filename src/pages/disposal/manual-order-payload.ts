import type { Dayjs } from 'dayjs';
import { manualOrderAmount, PREPAY_NO, PREPAY_YES } from '../../shared/manual-order';
import { type Process, type RegionNode, regionLabels } from './lookups';

/** The dialog's form as antd holds it: regions as code paths, the date as a Dayjs, numbers as numbers. */
export interface ManualOrderForm {
  types?: string;
  needPrepay: typeof PREPAY_NO | typeof PREPAY_YES;
  prepayPrice?: number | null;
  payer?: string;
  payee?: string;
  partyACompany?: string;
  partyACompanyName?: string;
  contractId?: number;
  contractNo?: string;
  partyAName?: string;
  partyAPhone?: string;
  partyARegion?: string[];
  partyAAddress?: string;
  partyAUserId?: number;
  partyBWarehouseId?: number;
  partyBRegion?: string[];
  partyBAddress?: string;
  partyBName?: string;
  partyBPhone?: string;
  partyBUserId?: number;
  wasteCategoryCode?: string;
  wasteCategoryName?: string;
  quantity?: number | null;
  unit?: string;
  price?: number | null;
  amount?: number | null;
  processId?: number;
  processSubId?: number;
  packageType?: string;
  estDisposalTime?: Dayjs | null;
  remark?: string;
}

export const EMPTY_ORDER: ManualOrderForm = { needPrepay: PREPAY_NO };

/** What the labels of picked items were, for the fields the server keeps beside the ids. */
export interface PayloadContext {
  regions: readonly RegionNode[];
  processes: readonly Process[];
  subProcesses: readonly Process[];
  /** Region labels copied from a contract or unloading point, used when the tree does not know the codes. */
  copiedRegionFmt: { partyA?: string; partyB?: string };
}

const text = (v: string | undefined | null) => {
  const t = v?.trim();
  return t ? t : undefined;
};

/** A region path as the server stores it: codes joined by commas, labels by slashes. */
function region(codes: string[] | undefined, tree: readonly RegionNode[], copied: string | undefined) {
  if (!codes?.length) return { codes: undefined, fmt: undefined };
  return { codes: codes.join(','), fmt: regionLabels(tree, codes) ?? copied };
}

/** The body of the manual order's add call: every field of the order, blanks left out. */
export function manualOrderPayload(v: ManualOrderForm, ctx: PayloadContext): Record<string, unknown> {
  const a = region(v.partyARegion, ctx.regions, ctx.copiedRegionFmt.partyA);
  const b = region(v.partyBRegion, ctx.regions, ctx.copiedRegionFmt.partyB);
  const process = ctx.processes.find((p) => p.id === v.processId);
  const sub = ctx.subProcesses.find((p) => p.id === v.processSubId);
  const prepay = v.needPrepay === PREPAY_YES;
  const body: Record<string, unknown> = {
    types: v.types,
    needPrepay: prepay ? PREPAY_YES : PREPAY_NO,
    prepayPrice: prepay ? v.prepayPrice : undefined,
    payer: text(v.payer),
    payee: text(v.payee),
    contractId: v.contractId,
    contractNo: v.contractId ? text(v.contractNo) : undefined,
    partyACompany: v.partyACompany,
    partyACompanyName: text(v.partyACompanyName),
    partyAName: text(v.partyAName),
    partyAPhone: text(v.partyAPhone),
    partyARegion: a.codes,
    partyARegionFmt: a.fmt,
    partyAAddress: text(v.partyAAddress),
    partyAUserId: v.partyAUserId,
    partyBWarehouseId: v.partyBWarehouseId,
    partyBRegion: b.codes,
    partyBRegionFmt: b.fmt,
    partyBAddress: text(v.partyBAddress),
    partyBName: text(v.partyBName),
    partyBPhone: text(v.partyBPhone),
    partyBUserId: v.partyBUserId,
    wasteCategoryCode: text(v.wasteCategoryCode),
    wasteCategoryName: text(v.wasteCategoryName),
    quantity: v.quantity,
    unit: v.unit,
    price: v.price,
    amount: manualOrderAmount(v.price, v.quantity),
    processId: process?.id,
    processIdFmt: process?.name,
    processTypeId: process ? String(process.id) : undefined,
    processCode: process?.code,
    processSubId: sub?.id,
    processSubIdFmt: sub?.name,
    processTypeSubId: sub ? String(sub.id) : undefined,
    processSubCode: sub?.code,
    packageType: v.packageType,
    estDisposalTime: v.estDisposalTime ? v.estDisposalTime.format('YYYY-MM-DD') : undefined,
    remark: text(v.remark),
  };
  for (const k of Object.keys(body)) if (body[k] === undefined || body[k] === null) delete body[k];
  return body;
}
