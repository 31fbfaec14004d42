/**
 * ECharts through `echarts/core`, with only what the screen's chart kinds use: line, bar, pie and
 * radar series, grid, legend, title, tooltip and radar components, the canvas and SVG renderers.
 * Loaded only with the chart components (a lazy chunk), never with the login route.
 */
import { BarChart, LineChart, PieChart, RadarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, RadarComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';

use([
  LineChart,
  BarChart,
  PieChart,
  RadarChart,
  GridComponent,
  LegendComponent,
  RadarComponent,
  TitleComponent,
  TooltipComponent,
  CanvasRenderer,
  SVGRenderer,
]);

export type { EChartsType } from 'echarts/core';
export { init };
