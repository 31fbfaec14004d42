import { CloseCircleOutlined, CloseOutlined, MinusCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { trimPath } from '../model';
import { mayClose } from '../navigation/close-guards';
import { APP_PATHS } from '../shared/app-paths';
import { afterClose, neighbourOf, type Tag, tagsStore, useTags } from './tags-store';

/** Room kept between a tag scrolled into view and the bar's edge, the bar's own padding. */
const TAG_EDGE = 10;

/** Scrolls the bar sideways, as little as needed, until the tag lies wholly inside it. */
function revealTag(bar: HTMLElement, tag: HTMLElement): void {
  const b = bar.getBoundingClientRect();
  const t = tag.getBoundingClientRect();
  if (t.left < b.left + TAG_EDGE) bar.scrollLeft -= b.left + TAG_EDGE - t.left;
  else if (t.right > b.right - TAG_EDGE) bar.scrollLeft += t.right - (b.right - TAG_EDGE);
}

/** The tag context menu is 105 px wide. */
export const TAG_MENU_WIDTH = 105;

/**
 * The visited pages as tags: click to switch, × to close (then the neighbour opens), right-click
 * for 刷新 / 关闭 / 关闭其他 / 关闭所有. Pinned tags have no × and survive every close. Keyboard:
 * arrows move between tags, Enter opens, Delete closes, the context-menu key or Shift+F10 opens the menu.
 */
export function TagsBar() {
  const { tags } = useTags();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const barRef = useRef<HTMLDivElement | null>(null);
  const active = trimPath(pathname);

  // The open page's tag is always in view: after every navigation (menu, tag, keyboard, history) and
  // every change of the tags. Found in the bar itself: the Dropdown around a tag takes its child's ref.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll again whenever the open page or the tags change
  useEffect(() => {
    const bar = barRef.current;
    const tag = bar?.querySelector<HTMLElement>('.wg-tag.is-active');
    if (bar && tag) revealTag(bar, tag);
  }, [active, tags]);

  const go = (to: string | undefined) => {
    if (to) navigate(to);
  };

  // A page with unsaved work (src/navigation/close-guards.ts) is asked before its tag closes.
  const closing = (keep: (t: Tag) => boolean) => mayClose(tags.filter((t) => !t.affix && !keep(t)).map((t) => t.path));
  const close = async (tag: Tag) => {
    if (tag.affix || !(await closing((t) => t !== tag))) return;
    const before = tagsStore.get().tags;
    go(afterClose(before, tagsStore.close(tag.path), active, neighbourOf(before, tag.path)));
  };
  const closeOthers = async (tag: Tag) => {
    if (!(await closing((t) => t === tag))) return;
    const before = tagsStore.get().tags;
    go(afterClose(before, tagsStore.closeOthers(tag.path), active, tag));
  };
  const closeAll = async () => {
    if (!(await closing(() => false))) return;
    const before = tagsStore.get().tags;
    go(afterClose(before, tagsStore.closeAll(), active));
  };
  const refresh = (tag: Tag) => navigate(`${APP_PATHS.redirect}${tag.fullPath}`);

  const menuOf = (tag: Tag): MenuProps => ({
    style: { width: TAG_MENU_WIDTH },
    items: [
      { key: 'refresh', icon: <ReloadOutlined />, label: '刷新' },
      { key: 'close', icon: <CloseOutlined />, label: '关闭', disabled: tag.affix },
      { key: 'others', icon: <MinusCircleOutlined />, label: '关闭其他', disabled: tags.every((t) => t.affix || t === tag) },
      { key: 'all', icon: <CloseCircleOutlined />, label: '关闭所有', disabled: tags.every((t) => t.affix) },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (key === 'refresh') refresh(tag);
      else if (key === 'close') void close(tag);
      else if (key === 'others') void closeOthers(tag);
      else if (key === 'all') void closeAll();
    },
  });

  const onKeyDown = (tag: Tag) => (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      navigate(tag.fullPath);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      void close(tag);
    } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      const next = e.key === 'ArrowRight' ? e.currentTarget.nextElementSibling : e.currentTarget.previousElementSibling;
      if (next instanceof HTMLElement) next.focus();
    } else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      e.preventDefault();
      const rect = e.currentTarget.getBoundingClientRect();
      e.currentTarget.dispatchEvent(
        new MouseEvent('contextmenu', { bubbles: true, clientX: rect.left + 8, clientY: rect.bottom, button: 2 }),
      );
    }
  };

  return (
    <div ref={barRef} className="wg-tags" role="tablist" aria-label="已打开的页面">
      {tags.map((tag) => {
        const isActive = tag.path === active;
        return (
          <Dropdown
            key={tag.path}
            trigger={['contextMenu']}
            menu={menuOf(tag)}
            styles={{ root: { width: TAG_MENU_WIDTH, minWidth: TAG_MENU_WIDTH } }}
          >
            <div
              role="tab"
              tabIndex={isActive ? 0 : -1}
              aria-selected={isActive}
              title={tag.title}
              className={`wg-tag${isActive ? ' is-active' : ''}`}
              data-path={tag.path}
              onClick={() => {
                if (!isActive || tag.fullPath !== `${pathname}${search}`) navigate(tag.fullPath);
              }}
              onMouseUp={(e) => {
                // Middle click closes, as in browsers.
                if (e.button === 1) void close(tag);
              }}
              onKeyDown={onKeyDown(tag)}
            >
              <span className="wg-tag-title">{tag.title}</span>
              {!tag.affix && (
                <button
                  type="button"
                  className="wg-tag-close"
                  aria-label={`关闭 ${tag.title}`}
                  tabIndex={-1}
                  onClick={(e) => {
                    e.stopPropagation();
                    void close(tag);
                  }}
                >
                  <CloseOutlined />
                </button>
              )}
            </div>
          </Dropdown>
        );
      })}
    </div>
  );
}
