import { useMemo } from 'react';
import type { BigScreenModel } from '../../model/index.js';
import { useEngineServices } from '../services';
import { ScreenDataProvider, screenDataOf, useProvidedScreenData } from './data-source';
import { ScreenView } from './screen-view';

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
