import { lazy, Suspense } from 'react';
import type { EngineExtensions } from '../engine';
import { lowcodePageOf } from '../model';

/**
 * What the app adds to engine pages: the disposal order list gets 手工录入, the manual disposal order,
 * on the view's page (the 处置订单 menu) and where a screen shows it; not in a designer's preview. Each
 * addition is loaded with the page that shows it, not with the app.
 */

/** The componentName of the disposal order view. */
export const DISPOSAL_ORDER_VIEW = 'disposalOrder';

const ManualOrderButton = lazy(() => import('../pages/disposal/manual-order-button').then((m) => ({ default: m.ManualOrderButton })));

export const engineExtensions: EngineExtensions = {
  listToolbar: ({ pathname, componentName, reload }) =>
    componentName === DISPOSAL_ORDER_VIEW && lowcodePageOf(pathname) ? (
      <Suspense fallback={null}>
        <ManualOrderButton onCreated={reload} />
      </Suspense>
    ) : null,
};
