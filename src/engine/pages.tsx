/** The page components generated pages compose, in one place for the engine's public entry. */

export { FormPage } from './form/form-page';
export { ListPage, type ListPageProps, ListSearchNotInAddress } from './list/list-page';
export { ContainerPage } from './runtime/resolved-page';
export { BigScreenPage } from './screen/big-screen-page';
