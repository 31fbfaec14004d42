import { createContext } from 'react';

/** Whether ECharts charts animate: they do on a screen; the designer's canvas shows every change at once. */
export const ChartMotionContext = createContext(true);
