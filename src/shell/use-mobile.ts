import { useEffect, useState } from 'react';

/** Below 992 px the sidebar becomes a drawer; resizes are debounced 100 ms. */
export const MOBILE_BREAKPOINT = 992;
export const RESIZE_DEBOUNCE_MS = 100;

const isMobileWidth = () => typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT;

export function useMobile(): boolean {
  const [mobile, setMobile] = useState(isMobileWidth);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setMobile(isMobileWidth()), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return mobile;
}
