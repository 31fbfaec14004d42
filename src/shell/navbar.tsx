import {
  BellOutlined,
  DownOutlined,
  FontSizeOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  LockOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Badge, Breadcrumb, Dropdown, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useUnreadCounts } from '../messages/unread-store';
import { usePageTitles } from '../navigation/page-titles';
import { useAvatarUrl, useUserProfile } from '../navigation/user-profile';
import { notify } from '../notify/notifier';
import { confirmLogout } from '../session/logout';
import { PasswordDialog } from '../session/password-dialog';
import { useSession } from '../session/session-store';
import { type ComponentSize, SIZES, settingsStore, useSettings } from '../settings/settings-store';
import { APP_PATHS } from '../shared/app-paths';
import { showsMessageBadge } from '../shared/departments';
import { breadcrumbFor, type Crumb } from './breadcrumb';
import { HeaderSearch } from './header-search';
import { recordVisitOnce } from './record-visit';
import { useFlatMenus } from './use-menus';
import { useMatchedHandle, useRouteHandles } from './use-route-handles';

function NavBreadcrumb() {
  const { pathname } = useLocation();
  const handles = useRouteHandles();
  const matched = useMatchedHandle();
  const flat = useFlatMenus();
  const titles = usePageTitles();
  const crumbs = breadcrumbFor(pathname, { handles, menus: flat, titles }, matched);
  // /redirect/… is skipped: keep showing the page being refreshed.
  const last = useRef<Crumb[]>([]);
  if (crumbs) last.current = crumbs;
  const shown = crumbs ?? last.current;
  return (
    <Breadcrumb
      className="wg-breadcrumb"
      items={shown.map((c, i) => ({
        key: `${i}-${c.title}`,
        title: c.path && i < shown.length - 1 ? <Link to={c.path}>{c.title}</Link> : c.title,
      }))}
    />
  );
}

/** Said when the browser cannot enter full screen. */
export const FULLSCREEN_UNSUPPORTED = '您的浏览器不支持全屏';

function FullscreenButton() {
  const [full, setFull] = useState(() => typeof document !== 'undefined' && Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled || typeof document.documentElement.requestFullscreen !== 'function') {
      notify.warning(FULLSCREEN_UNSUPPORTED);
      return;
    }
    const done = full ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    done.catch(() => notify.warning(FULLSCREEN_UNSUPPORTED));
  };
  const label = full ? '退出全屏' : '全屏';
  return (
    <Tooltip title={label}>
      <button type="button" className="wg-nav-button" aria-label={label} onClick={toggle}>
        {full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      </button>
    </Tooltip>
  );
}

function SizeSelect() {
  const { size } = useSettings();
  // The hint would cover the first choice of the open menu.
  const [menuOpen, setMenuOpen] = useState(false);
  const choose = (value: ComponentSize) => {
    if (value === settingsStore.get().size) return;
    settingsStore.set({ size: value });
    notify.success('布局设置成功');
  };
  return (
    <Dropdown
      trigger={['click']}
      onOpenChange={setMenuOpen}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((s) => ({ key: s.value, label: s.label })),
        onClick: ({ key }) => choose(key as ComponentSize),
      }}
    >
      <Tooltip title="布局大小" placement="bottom" open={menuOpen ? false : undefined}>
        <button type="button" className="wg-nav-button" aria-label="布局大小">
          <FontSizeOutlined />
        </button>
      </Tooltip>
    </Dropdown>
  );
}

function MessageBadge() {
  const { sys, leave, total: count } = useUnreadCounts();
  const label = count ? `未读消息 ${count} 条（系统消息 ${sys} 条，留言 ${leave} 条）` : '系统消息';
  return (
    <Tooltip title={label}>
      <Link to={APP_PATHS.systemMessages} className="wg-nav-button" aria-label={label}>
        <Badge count={count} size="small" overflowCount={99}>
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      </Link>
    </Tooltip>
  );
}

function UserMenu() {
  const { info } = useSession();
  const navigate = useNavigate();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const newer = useUserProfile(info?.user.id);
  const name = newer?.nickName || info?.user.nickName || info?.user.username || '';
  const avatar = useAvatarUrl(newer ? newer.avatar : (info?.user as { avatar?: string | null } | undefined)?.avatar);
  return (
    <>
      {passwordOpen && <PasswordDialog open onClose={() => setPasswordOpen(false)} />}
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'center', icon: <UserOutlined />, label: '个人中心' },
            { key: 'password', icon: <LockOutlined />, label: '修改密码' },
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
          ],
          onClick: ({ key }) => {
            if (key === 'center') navigate(APP_PATHS.userCenter);
            else if (key === 'password') setPasswordOpen(true);
            else void confirmLogout();
          },
        }}
      >
        <button type="button" className="wg-nav-button wg-user" aria-label={`用户菜单：${name}`}>
          <Avatar size={30} src={avatar} icon={<UserOutlined />} />
          <span className="wg-user-name">{name}</span>
          <DownOutlined style={{ fontSize: 10 }} />
        </button>
      </Dropdown>
    </>
  );
}

export interface NavbarProps {
  mobile: boolean;
  /** Sidebar expanded (desktop) or drawer open (mobile). */
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  onOpenSettings: () => void;
}

/** The top bar: hamburger, breadcrumb, search, full screen, size, messages, settings, department, user. */
export function Navbar({ mobile, sidebarOpen, onToggleSidebar, onOpenSettings }: NavbarProps) {
  const { info } = useSession();
  const showBadge = showsMessageBadge(info?.user.deptId);
  const dept = info?.user.dept?.name;
  const toggleLabel = sidebarOpen ? '收起侧边栏' : '展开侧边栏';
  useEffect(() => recordVisitOnce(), []);
  return (
    <div className="wg-navbar">
      <Tooltip title={toggleLabel} placement="bottomLeft">
        <button
          type="button"
          className="wg-nav-button wg-hamburger"
          aria-label={toggleLabel}
          aria-expanded={sidebarOpen}
          onClick={onToggleSidebar}
        >
          {sidebarOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        </button>
      </Tooltip>
      <NavBreadcrumb />
      <div className="wg-navbar-right">
        {!mobile && <HeaderSearch />}
        {!mobile && <FullscreenButton />}
        <SizeSelect />
        {showBadge && <MessageBadge />}
        <Tooltip title="系统布局设置">
          <button type="button" className="wg-nav-button" aria-label="系统布局设置" onClick={onOpenSettings}>
            <SettingOutlined />
          </button>
        </Tooltip>
        {dept && !mobile && (
          <span className="wg-dept" title="所属部门">
            {dept}
          </span>
        )}
        <UserMenu />
      </div>
    </div>
  );
}
