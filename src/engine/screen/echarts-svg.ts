/** ECharts' SVG renderer, in a chunk of its own: only screens drawn with it load it. */
export { SVGRenderer } from 'echarts/renderers';
