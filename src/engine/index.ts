/**
 * The low-code engine: the components generated pages compose and the runtime renderer uses for
 * definitions newer than the build. Both pass a page model from src/model, so a generated page and
 * a runtime page behave the same. (The full list, form, container and big-screen renderers are
 * issue 5; until then these components show the page's title and what it is built from.)
 */

export type { BigScreenModel, ContainerPageModel, FormPageModel, ListPageModel, PageModel } from '../model/types.js';
export { EngineForm } from './form/engine-form';
export * from './options';
export { BigScreenPage, ContainerPage, FormPage, ListPage } from './pages.js';
export type { GeneratedRoute } from './routes.js';
