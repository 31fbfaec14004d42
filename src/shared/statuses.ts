/**
 * The status vocabulary: every family of states a record goes through, with the one name each state
 * has everywhere (lists, details, dashboards, figures, the server's answers) and its tag tone. The
 * server seeds its dictionaries from these entries (a status dictionary of the same name), and pages
 * that show a state outside a dictionary-driven list take its name from here, so a state is never
 * called two things. Values are the stored codes, as text.
 */

/** A dictionary entry's tag tone (element-ui tag types); '' is the primary blue. */
export type StatusTone = 'success' | 'info' | 'warning' | 'danger' | '';

export interface StatusEntry {
  value: string;
  label: string;
  tone: StatusTone;
}

export interface StatusFamily<K extends string = string> {
  /** The dictionary the family is stored as; none for a family only the server's own code keeps. */
  dict?: string;
  /** The dictionary's description. */
  title: string;
  /** Code of each state, by its name in code. */
  codes: Record<K, string>;
  entries: readonly StatusEntry[];
}

/** A family whose codes count 0, 1, … in the order of its states. */
function family<const K extends string>(
  dict: string | undefined,
  title: string,
  states: readonly (readonly [key: K, label: string, tone: StatusTone])[],
): StatusFamily<K> {
  const codes = Object.fromEntries(states.map(([key], i) => [key, String(i)])) as Record<K, string>;
  const entries = states.map(([, label, tone], i) => ({ value: String(i), label, tone }));
  return { dict, title, codes, entries };
}

/** Disposal and logistics orders (orderStatus): the same five states for both kinds of order. */
export const ORDER_STATUS = family('orderStatus', '订单状态', [
  ['pending', '待确认', 'warning'],
  ['ongoing', '执行中', ''],
  ['finished', '已完成', 'success'],
  ['cancelled', '已取消', 'info'],
  ['rejected', '已驳回', 'danger'],
]);

/** Disposal inquiries (inquiryStatus). */
export const INQUIRY_STATUS = family('inquiryStatus', '询价状态', [
  ['waiting', '待报价', 'warning'],
  ['quoted', '已报价', 'success'],
  ['closed', '已关闭', 'info'],
  ['rejected', '已驳回', 'danger'],
]);

/** Stock-in records (stockStatus). */
export const STOCK_STATUS = family('stockStatus', '库存状态', [
  ['waiting', '待入库', 'warning'],
  ['stocked', '已入库', 'success'],
  ['out', '已出库', 'info'],
]);

/** Contracts (contractStatus). */
export const CONTRACT_STATUS = family('contractStatus', '合同状态', [
  ['draft', '草稿', 'info'],
  ['signing', '待签署', 'warning'],
  ['effective', '生效中', 'success'],
  ['expired', '已到期', 'info'],
  ['terminated', '已终止', 'danger'],
]);

/** Vehicles (vehicleStatus). */
export const VEHICLE_STATUS = family('vehicleStatus', '车辆状态', [
  ['idle', '空闲', 'success'],
  ['onRoad', '运输中', 'warning'],
  ['repair', '维修中', 'danger'],
  ['outOfService', '停用', 'info'],
]);

/** Applications to join: stored as numbers by the review, not a dictionary. */
export const APPLICATION_STATUS = family(undefined, '入驻申请状态', [
  ['pending', '待审核', 'warning'],
  ['approved', '已通过', 'success'],
  ['rejected', '已驳回', 'danger'],
]);

/** Every status family. */
export const STATUS_FAMILIES: readonly StatusFamily[] = [
  INQUIRY_STATUS,
  STOCK_STATUS,
  CONTRACT_STATUS,
  VEHICLE_STATUS,
  ORDER_STATUS,
  APPLICATION_STATUS,
];

/** The name of a state, by its code; undefined for a code the family does not have. */
export function statusLabel(family: StatusFamily, code: unknown): string | undefined {
  if (code === null || code === undefined) return undefined;
  return family.entries.find((e) => e.value === String(code))?.label;
}

/** The name of a state, by its key in code: statusName(ORDER_STATUS, 'pending') → 待确认. */
export function statusName<K extends string>(family: StatusFamily<K>, key: K): string {
  return statusLabel(family, family.codes[key]) ?? key;
}

/** A tone as an antd Tag colour; no tone (or an unknown one) is the primary blue. */
export function toneColor(tone: string | null | undefined): string {
  switch (tone) {
    case 'success':
      return 'success';
    case 'info':
      return 'default';
    case 'warning':
      return 'warning';
    case 'danger':
      return 'error';
    default:
      return 'processing';
  }
}
