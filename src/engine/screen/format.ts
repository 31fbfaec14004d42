import { useSyncExternalStore } from 'react';
import { NUMBER_TEXT } from '../../model';
import { formatMoney } from '../../shared/format';

/** Figures and money on a big screen: thousands separators; money by the app's money rule (2 decimals). */

const FIGURE = new Intl.NumberFormat('zh-CN', { maximumFractionDigits: 3 });

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && NUMBER_TEXT.test(v)) return Number(v);
  return undefined;
}

export function figureText(v: unknown): string {
  const n = asNumber(v);
  if (n !== undefined) return FIGURE.format(n);
  return v === null || v === undefined || v === '' ? '-' : String(v);
}

export function moneyText(v: unknown): string {
  const n = asNumber(v);
  if (n !== undefined) return formatMoney(n);
  return v === null || v === undefined || v === '' ? '-' : String(v);
}

export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

// ----- the header clock -----

const pad = (n: number) => String(n).padStart(2, '0');

/** `yyyy.MM.dd HH:mm:ss` */
export const formatClock = (d: Date): string =>
  `${d.getFullYear()}.${pad(d.getMonth() + 1)}.${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

let clockText = '';
let clockTimer: ReturnType<typeof setTimeout> | undefined;
const clockListeners = new Set<() => void>();

function tick(): void {
  clockText = formatClock(new Date());
  for (const listener of [...clockListeners]) listener();
  // Just after the next whole second, so the shown second never lags.
  clockTimer = setTimeout(tick, 1000 - (Date.now() % 1000) + 5);
}

function subscribeClock(listener: () => void): () => void {
  clockListeners.add(listener);
  if (clockTimer === undefined) tick();
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size) return;
    clearTimeout(clockTimer);
    clockTimer = undefined;
  };
}

/** The current time as `yyyy.MM.dd HH:mm:ss`, ticking each second; empty in server rendering. */
export function useClock(): string {
  return useSyncExternalStore(
    subscribeClock,
    () => clockText,
    () => '',
  );
}
