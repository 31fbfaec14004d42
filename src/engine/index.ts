/**
 * The low-code engine: the components generated pages compose, and the runtime renderer that draws
 * definitions newer than the build. Both pass a page model from src/model, so a generated page and
 * a runtime page behave the same. The app supplies what the engine needs (data, downloads, notices,
 * permissions, navigation, the generated pages) through <EngineServicesProvider>.
 */

export type { BigScreenModel, ContainerPageModel, FormPageModel, ListPageModel, PageModel } from '../model/types.js';
export type { EngineFormHandle, EngineFormProps, FormMode } from './contracts.js';
export { EngineForm } from './form/engine-form.js';
export { type CrudStates, crudTransition, useCrud } from './hooks/use-crud.js';
export { type DefinitionState, useDefinition, useDefinitions } from './hooks/use-definition.js';
export { type ListQuery, listQueryReducer, useListQuery } from './hooks/use-list-query.js';
export { RECORD_CLOSE_MS, useRecord } from './hooks/use-record.js';
export * from './options/index.js';
export { BigScreenPage, ContainerPage, FormPage, ListPage, type ListPageProps } from './pages.js';
export type { GeneratedRoute } from './routes.js';
export { type DefinitionKind, type Resolution, resolveDefinition, resolveView, titleOf } from './runtime/resolve.js';
export { ResolvedScreen, ResolvedView, ViewFromDefinition } from './runtime/resolved-page.js';
export {
  type CallOptions,
  type ConfirmOptions,
  type CustomCall,
  type DataProvider,
  type EngineNavigation,
  type EngineNotifier,
  type EngineServices,
  EngineServicesProvider,
  HttpError,
  type ImportResult,
  type ListResult,
  type PageLocation,
  type RecordRow,
  type Row,
  useEngineServices,
  usePageNavigation,
  type ViewResource,
} from './services.js';
