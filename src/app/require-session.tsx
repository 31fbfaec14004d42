import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { getToken } from '../session/token';

/** Routes below need a session; without a token the user logs in first and comes back. */
export function RequireSession() {
  const location = useLocation();
  if (!getToken()) {
    const back = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?redirect=${encodeURIComponent(back)}`} replace />;
  }
  return <Outlet />;
}
