import { SearchOutlined } from '@ant-design/icons';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../session/session-store';
import { createMenuSearch } from './menu-search';
import { sidebarItems, visiblePages } from './sidebar-items';

/**
 * The top bar's menu search: type part of a page's title (typos allowed) or path, pick a result
 * with the mouse or the arrow keys and Enter, and go there. Only pages the sidebar shows are offered.
 */
export function HeaderSearch({ width = 200 }: { width?: number }) {
  const { menus } = useSession();
  const navigate = useNavigate();
  const engine = useMemo(() => createMenuSearch(visiblePages(sidebarItems(menus))), [menus]);
  const [query, setQuery] = useState('');
  const options = useMemo(
    () =>
      engine.search(query).map((p) => ({
        value: p.path,
        label: p.trail.join(' > '),
      })),
    [engine, query],
  );

  const go = (path: string) => {
    setQuery('');
    if (/^https?:\/\//.test(path)) window.open(path, '_blank', 'noopener');
    else navigate(path);
  };

  return (
    <Select<string | null>
      className="wg-header-search"
      aria-label="搜索菜单"
      placeholder="搜索菜单"
      value={null}
      showSearch={{ filterOption: false, onSearch: setQuery, searchValue: query }}
      options={options}
      onSelect={(path) => path && go(path)}
      notFoundContent={query.trim() ? '没有匹配的菜单' : null}
      suffixIcon={<SearchOutlined />}
      popupMatchSelectWidth={Math.max(width, 240)}
      style={{ width }}
      variant="filled"
    />
  );
}
