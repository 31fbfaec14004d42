/**
 * The engine's services as this app supplies them: its request client and downloads, its notifier,
 * the signed-in user's permissions, the router and the tag bar, and the build's generated pages.
 * Mounted once in the layout, around every page it draws.
 */

import { type ReactNode, useContext, useMemo } from 'react';
import { UNSAFE_DataRouterContext, useLocation } from 'react-router-dom';
import { generatedRoutes } from '../../generated/routes';
import { hasPermission } from '../access/permission';
import { type EngineNavigation, type EngineServices, EngineServicesProvider } from '../engine';
import { trimPath } from '../model';
import { notify } from '../notify/notifier';
import { download, http } from '../request';
import { saveBlob } from '../request/download';
import { useSession } from '../session/session-store';
import { APP_PATHS } from '../shared/app-paths';
import { afterClose, neighbourOf, tagsStore } from '../shell/tags-store';
import { createDataProvider } from './data-provider';
import { engineExtensions } from './engine-extensions';

/** One for the app: it holds no state of its own. */
const data = createDataProvider(http, download);

/** The app's services for a user's roles and a router; `navigation.useLocation` is react-router's. */
export function createEngineServices(deps: {
  roles: readonly string[];
  navigate: (path: string, options?: { replace?: boolean }) => void;
  /** The path shown now (a page kept in a hidden tab is not). */
  activePath: () => string;
}): EngineServices {
  const navigation: EngineNavigation = {
    useLocation,
    navigate: deps.navigate,
    closePage: (pathname) => {
      const path = trimPath(pathname);
      const before = tagsStore.get().tags;
      const target = afterClose(before, tagsStore.close(path), deps.activePath(), neighbourOf(before, path));
      // A page without a tag of its own still goes away when it is the one shown.
      const fallback = !before.some((t) => t.path === path) && deps.activePath() === path ? APP_PATHS.home : undefined;
      const to = target ?? fallback;
      if (to) deps.navigate(to);
    },
  };
  return {
    data,
    download: (url, query, fileName) => download(url, query, fileName),
    saveFile: saveBlob,
    notify,
    can: (permission) => hasPermission(deps.roles, permission),
    navigation,
    routes: generatedRoutes,
    extensions: engineExtensions,
  };
}

export function AppEngineServices({ children }: { children?: ReactNode }) {
  const { roles } = useSession();
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const services = useMemo(
    () =>
      createEngineServices({
        roles,
        navigate: (path, options) => void router?.navigate(path, options),
        activePath: () => trimPath(router?.state.location.pathname ?? '/'),
      }),
    [roles, router],
  );
  return <EngineServicesProvider services={services}>{children}</EngineServicesProvider>;
}
