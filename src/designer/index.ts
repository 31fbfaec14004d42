/**
 * The authoring layer: the designers of big screens and of views, drawn with the engine's renderer
 * and sharing one document lifecycle (load, draft in the browser, restore, unsaved state, leaving
 * and a save that refuses to overwrite a newer one).
 */
export type { CloseGuard } from './document.js';
export { ScreenDesigner, type ScreenDesignerProps } from './screen/screen-designer.js';
