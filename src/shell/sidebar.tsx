import { ConfigProvider, Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { MenuIcon } from '../navigation/menu-icons';
import { useSession } from '../session/session-store';
import { settingsStore, useSettings } from '../settings/settings-store';
import { APP_PATHS } from '../shared/app-paths';
import { findRoute } from './menu-routes';
import { nextOpenKeys, type SideItem, sidebarItems } from './sidebar-items';
import { useFlatMenus } from './use-menus';

export const SIDEBAR_WIDTH = 205;
export const SIDEBAR_COLLAPSED_WIDTH = 64;
export const SIDEBAR_BG = '#304156';
const SUBMENU_BG = '#1f2d3d';
export const SYSTEM_TITLE = '危废管理平台';

type Item = Required<MenuProps>['items'][number];

function toMenuItems(items: readonly SideItem[]): Item[] {
  return items.map((i) => ({
    key: i.key,
    icon: <MenuIcon name={i.icon} />,
    label: i.title,
    title: i.title,
    children: i.children ? toMenuItems(i.children) : undefined,
  }));
}

/** 首页, where signing in lands, heads the sidebar whatever the menus hold. */
export const HOME_ITEM: SideItem = { key: APP_PATHS.home, title: '首页', icon: 'home', external: false };

function withHome(items: SideItem[]): SideItem[] {
  return items.some((i) => i.key === APP_PATHS.home) ? items : [HOME_ITEM, ...items];
}

function SidebarLogo({ collapsed }: { collapsed: boolean }) {
  return (
    <Link to={APP_PATHS.home} className="wg-sidebar-logo" aria-label={`${SYSTEM_TITLE}首页`}>
      <img src="/favicon.svg" alt="" width={28} height={28} />
      {!collapsed && <span>{SYSTEM_TITLE}</span>}
    </Link>
  );
}

/**
 * The sidebar menu from the session's menus: submenus for directories, the current page selected
 * (low-code pages match by their absolute path), its directories opened. With unique-open only
 * one branch is open at a time.
 */
export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const { menus } = useSession();
  const settings = useSettings();
  const flat = useFlatMenus();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const sideItems = useMemo(() => withHome(sidebarItems(menus)), [menus]);
  const items = useMemo(() => toMenuItems(sideItems), [sideItems]);
  const active = findRoute(flat, pathname);
  const ancestorKey = active
    ? active.trail
        .slice(0, -1)
        .map((t) => t.path)
        .join('\n')
    : '';
  const [openKeys, setOpenKeys] = useState<string[]>(() => (ancestorKey ? ancestorKey.split('\n') : []));

  // Arriving at a page (or expanding the sidebar again) opens the directories above it.
  useEffect(() => {
    if (collapsed) return;
    const ancestors = ancestorKey ? ancestorKey.split('\n') : [];
    setOpenKeys((prev) => (settings.uniqueOpened ? ancestors : [...new Set([...prev, ...ancestors])]));
  }, [ancestorKey, collapsed, settings.uniqueOpened]);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (/^https?:\/\//.test(key)) {
      window.open(key, '_blank', 'noopener');
      return;
    }
    navigate(key);
  };

  return (
    <div className="wg-sidebar" style={{ background: SIDEBAR_BG }}>
      {settings.sidebarLogo && <SidebarLogo collapsed={collapsed} />}
      <ConfigProvider
        theme={{
          components: {
            Menu: {
              darkItemBg: SIDEBAR_BG,
              darkSubMenuItemBg: SUBMENU_BG,
              darkPopupBg: SIDEBAR_BG,
              itemBorderRadius: 0,
              itemMarginInline: 0,
              itemMarginBlock: 0,
              collapsedWidth: SIDEBAR_COLLAPSED_WIDTH,
            },
          },
        }}
      >
        <nav aria-label="侧边菜单" className="wg-sidebar-menu">
          <Menu
            theme="dark"
            mode="inline"
            items={items}
            inlineCollapsed={collapsed}
            selectedKeys={active ? [active.path] : pathname === APP_PATHS.home ? [APP_PATHS.home] : []}
            openKeys={openKeys}
            onOpenChange={(keys) => setOpenKeys((prev) => nextOpenKeys(prev, keys, settingsStore.get().uniqueOpened))}
            onClick={onClick}
            inlineIndent={20}
          />
        </nav>
      </ConfigProvider>
    </div>
  );
}
