import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { trimPath, withoutQuery } from '../model';
import { tagsStore } from './tags-store';

/** The page /redirect/{path} stands for, with the query and hash kept. */
export function redirectTarget(pathname: string, search: string, hash: string): string {
  const rest = pathname.replace(/^\/redirect(?=\/|$)/, '');
  return `${rest.startsWith('/') ? rest : `/${rest}`}${search}${hash}`;
}

/**
 * /redirect/{path}: replaces itself with /{path}, keeping the query. The tag bar's 刷新 comes
 * through here; the page's cached instance is dropped first, so it mounts afresh.
 */
export function RedirectPage() {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = redirectTarget(pathname, search, hash);
    tagsStore.refresh(trimPath(withoutQuery(target)));
    navigate(target, { replace: true });
  }, [pathname, search, hash, navigate]);
  return null;
}
