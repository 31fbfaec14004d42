import { Outlet } from 'react-router-dom';

/** The back-office frame: sidebar, top bar, tag bar and the page. */
export function Layout() {
  return <Outlet />;
}
