/**
 * The big screen's renderer alone: the engine's second door, for the viewer's own page
 * (ls-preview.html). A wall display draws screens and nothing else, so this door reaches none of the
 * back office's engine (lists, forms, options, the runtime renderer, antd): what it exports loads
 * only React, the page model and the renderer; ECharts and each widget's extras load with the first
 * screen that needs them. Everything here is also on the engine's index.
 */
export { dataViewAnswerOf, ScreenDataProvider, type ScreenDataSource } from './screen/data-source.js';
export { ScreenView } from './screen/screen-view.js';
