/**
 * ECharts through `echarts/core`, with only what the screen's chart kinds use: line, bar, pie and
 * radar series, the grid, legend, title and radar components, and the canvas renderer. The SVG
 * renderer is registered on demand (svgRenderer()), for screens drawn with it. No tooltip: a wall
 * display has no pointer, and the tooltip with its axis pointer would weigh as much as two chart kinds.
 * Loaded only with the chart components (a lazy chunk), never with the login route.
 */
import { BarChart, LineChart, PieChart, RadarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, RadarComponent, TitleComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

use([LineChart, BarChart, PieChart, RadarChart, GridComponent, LegendComponent, RadarComponent, TitleComponent, CanvasRenderer]);

let svg: Promise<void> | undefined;

/** Registers the SVG renderer (its own chunk) once; resolves when charts can be made with it. */
export function svgRenderer(): Promise<void> {
  svg ??= import('./echarts-svg.js').then((m) => use(m.SVGRenderer));
  return svg;
}

export type { EChartsType } from 'echarts/core';
export { init };
