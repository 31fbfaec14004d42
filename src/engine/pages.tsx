import { useMemo } from 'react';
import type { BigScreenModel } from '../model/types.js';
import { ScreenDataProvider, screenDataOf, useProvidedScreenData } from './screen/data-source';
import { ScreenView } from './screen/screen-view';
import { useEngineServices } from './services';

export { ContainerPage } from './container/container-page';
export { FormPage } from './form/form-page';
export { ListPage, type ListPageProps } from './list/list-page';

/**
 * A big screen as an in-app page (menu pages, generated pages): the canvas fills the page's width at
 * its aspect ratio. Its data comes from a ScreenDataProvider above it, else from the engine's data
 * provider with the user's session.
 */
export function BigScreenPage({ model }: { model: BigScreenModel }) {
  const { data } = useEngineServices();
  const provided = useProvidedScreenData();
  const source = useMemo(() => provided ?? screenDataOf(data), [provided, data]);
  return (
    <ScreenDataProvider source={source}>
      <ScreenView model={model} fit="parent" />
    </ScreenDataProvider>
  );
}
