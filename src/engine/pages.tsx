/** The page components generated pages compose, in one place for the engine's public entry. */
export { ContainerPage } from './container/container-page';
export { FormPage } from './form/form-page';
export { ListPage, type ListPageProps } from './list/list-page';
export { BigScreenPage } from './screen/big-screen-page';
