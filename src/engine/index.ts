/**
 * The low-code engine: the components generated pages compose, and the runtime renderer that draws
 * definitions newer than the build. Both pass a page model from src/model, so a generated page and
 * a runtime page behave the same. The app supplies what the engine needs (data, downloads, notices,
 * permissions, navigation, the generated pages) through <EngineServicesProvider>.
 */

export type { BigScreenModel, ContainerPageModel, FormPageModel, ListPageModel, PageModel } from '../model/index.js';
export type { EngineFormHandle, EngineFormProps, FormMode } from './contracts.js';
export { EngineForm } from './form/engine-form.js';
export {
  CRUD_TEXTS,
  type Crud,
  type CrudOptions,
  type CrudStates,
  type CrudTexts,
  crudTransition,
  type RecordDialogState,
  useCrud,
} from './hooks/use-crud.js';
export { type DefinitionState, useDefinition, useDefinitions } from './hooks/use-definition.js';
export { useFilters } from './hooks/use-filters.js';
export { type RowCrud, type RowList, useListCrud } from './hooks/use-list-crud.js';
export {
  type ListProvider,
  type ListQuery,
  type ListQueryOptions,
  type ListSource,
  listQueryReducer,
  useListQuery,
  useViewSource,
} from './hooks/use-list-query.js';
export { RECORD_CLOSE_MS, useRecord } from './hooks/use-record.js';
export { useWholeCrud } from './hooks/use-whole-crud.js';
export {
  listTableProps,
  type PagerState,
  pickableTableProps,
  type TableList,
  type TablePropsOptions,
  tablePager,
  totalText,
  UNPAGED,
} from './list/table-props.js';
export * from './options/index.js';
export { BigScreenPage, ContainerPage, FormPage, ListPage, type ListPageProps, ListSearchNotInAddress } from './pages.js';
export type { GeneratedRoute } from './routes.js';
export { type DefinitionKind, type Resolution, resolveDefinition, resolveView, titleOf } from './runtime/resolve.js';
export { DefinitionProblems, failedTitle, ResolvedScreen, ResolvedView, ViewFromDefinition } from './runtime/resolved-page.js';
export { SAFE_HTML_CLASS, safeHtml } from './safe-html.js';
export { ChartMotionContext } from './screen/chart-motion.js';
// The big screen's renderer, which the designers draw their canvas and preview with.
export {
  dataViewAnswerOf,
  ScreenDataProvider,
  type ScreenDataSource,
  screenDataOf,
  useScreenDataSource,
} from './screen/data-source.js';
export type { EChartsType } from './screen/echarts.js';
export { cssUrl, type Grid, gridOf, headerHeightOf, itemRect } from './screen/layout.js';
export { ScaleContext, ScaleStore } from './screen/scale.js';
export { ScreenScheduler, sourcesOf } from './screen/scheduler.js';
export { SchedulerContext, ScreenContainer, ScreenHeader, ScreenView } from './screen/screen-view.js';
/** Loads the engine's ECharts build (its own chunk), for charts drawn outside a big screen. */
export const loadECharts = () => import('./screen/echarts.js');
export {
  type CallOptions,
  type ConfirmOptions,
  type CustomCall,
  type DataProvider,
  type EngineExtensions,
  type EngineNavigation,
  type EngineNotifier,
  type EngineServices,
  EngineServicesProvider,
  HttpError,
  type ImportResult,
  type ListResult,
  type PageLocation,
  type RecordRead,
  type RecordRow,
  type Row,
  useEngineServices,
  usePageNavigation,
  type ViewResource,
} from './services.js';
