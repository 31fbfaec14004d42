import { lazy, Suspense } from 'react';
import type { EngineExtensions } from '../engine/services';

/**
 * What the app adds to engine pages: the disposal order page (screen 30) gets 手工录入, the manual
 * disposal order. Each addition is loaded with the page that shows it, not with the app.
 */

/** The address of the disposal order page. */
export const DISPOSAL_ORDER_PAGE = '/dispose/vBuild/temp/30';

const ManualOrderButton = lazy(() => import('../pages/disposal/manual-order-button').then((m) => ({ default: m.ManualOrderButton })));

export const engineExtensions: EngineExtensions = {
  listToolbar: ({ pathname, reload }) =>
    pathname.replace(/\/+$/, '') === DISPOSAL_ORDER_PAGE ? (
      <Suspense fallback={null}>
        <ManualOrderButton onCreated={reload} />
      </Suspense>
    ) : null,
};
