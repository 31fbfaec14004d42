import { useEffect, useRef, useState } from 'react';
import { formatMoney } from '../../shared/format';

/** Finance figures count up over this long. */
export const FINANCE_COUNT_MS = 3600;
/** The logistics capacity counters count up over this long. */
export const CAPACITY_COUNT_MS = 3600;

const easeOut = (t: number) => 1 - (1 - t) ** 3;

/**
 * A number that counts up from its previous value to `value` over `duration` ms (ease-out), shown with
 * thousands separators and `decimals` decimals. The final figure is in `data-value` from the start, and
 * users who ask for reduced motion get it at once.
 */
export function CountUp({ value, duration, decimals = 0 }: { value: number; duration: number; decimals?: number }) {
  const [shown, setShown] = useState(0);
  const from = useRef(0);

  useEffect(() => {
    const start = from.current;
    const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (reduced || duration <= 0 || start === value) {
      from.current = value;
      setShown(value);
      return;
    }
    const t0 = performance.now();
    let frame = 0;
    const step = (now: number) => {
      const t = Math.min(1, (now - t0) / duration);
      const v = t >= 1 ? value : start + (value - start) * easeOut(t);
      from.current = v;
      setShown(v);
      if (t < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [value, duration]);

  return (
    <span className="wg-count-up" data-value={value.toFixed(decimals)}>
      {formatMoney(shown, decimals)}
    </span>
  );
}
