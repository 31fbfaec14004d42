/**
 * Layout settings: theme colour, tags view, fixed header,
 * sidebar logo and unique-open, kept in localStorage; the component size in the `size` cookie
 * (default small) and the sidebar state in the `sidebarStatus` cookie, as the original app did.
 */
import { useSyncExternalStore } from 'react';
import { createListeners } from '../shared/listeners';
import { getCookie, setCookie } from './cookies';

export const THEME_PRESETS = ['#2F6EFF', '#1890FF', '#304156', '#212121', '#11A983', '#13C2C2', '#6959CD', '#F5222D'] as const;
export const DEFAULT_THEME = '#2F6EFF';

export type ComponentSize = 'default' | 'medium' | 'small' | 'mini';
export const SIZES: { value: ComponentSize; label: string }[] = [
  { value: 'default', label: '默认' },
  { value: 'medium', label: '中等' },
  { value: 'small', label: '小' },
  { value: 'mini', label: '迷你' },
];

export interface Settings {
  theme: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  uniqueOpened: boolean;
  size: ComponentSize;
  /** Sidebar expanded (desktop). */
  sidebarOpened: boolean;
}

const STORAGE_KEY = 'wastegen.settings';
const DEFAULTS: Settings = {
  theme: DEFAULT_THEME,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  uniqueOpened: false,
  size: 'small',
  sidebarOpened: true,
};

function isSize(v: unknown): v is ComponentSize {
  return v === 'default' || v === 'medium' || v === 'small' || v === 'mini';
}

function load(): Settings {
  let stored: Partial<Settings> = {};
  try {
    stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Settings>;
  } catch {
    stored = {};
  }
  const size = getCookie('size');
  const sidebar = getCookie('sidebarStatus');
  return {
    theme: typeof stored.theme === 'string' && /^#[0-9a-f]{6}$/i.test(stored.theme) ? stored.theme : DEFAULTS.theme,
    tagsView: typeof stored.tagsView === 'boolean' ? stored.tagsView : DEFAULTS.tagsView,
    fixedHeader: typeof stored.fixedHeader === 'boolean' ? stored.fixedHeader : DEFAULTS.fixedHeader,
    sidebarLogo: typeof stored.sidebarLogo === 'boolean' ? stored.sidebarLogo : DEFAULTS.sidebarLogo,
    uniqueOpened: typeof stored.uniqueOpened === 'boolean' ? stored.uniqueOpened : DEFAULTS.uniqueOpened,
    size: isSize(size) ? size : DEFAULTS.size,
    sidebarOpened: sidebar === undefined ? DEFAULTS.sidebarOpened : sidebar === '1',
  };
}

let state: Settings = typeof window === 'undefined' ? DEFAULTS : load();
const listeners = createListeners();

function save(next: Settings): void {
  try {
    const { size: _size, sidebarOpened: _sidebar, ...persisted } = next;
    localStorage.setItem(STORAGE_KEY, JSON.stringify(persisted));
  } catch {
    // Settings still apply for this visit.
  }
  setCookie('size', next.size);
  setCookie('sidebarStatus', next.sidebarOpened ? '1' : '0');
}

export const settingsStore = {
  get: (): Settings => state,
  subscribe: listeners.subscribe,
  set(patch: Partial<Settings>): void {
    state = { ...state, ...patch };
    save(state);
    listeners.emit();
  },
  reset(): void {
    settingsStore.set({ ...DEFAULTS, size: state.size, sidebarOpened: state.sidebarOpened });
  },
};

export function useSettings(): Settings {
  return useSyncExternalStore(settingsStore.subscribe, settingsStore.get, settingsStore.get);
}

/** antd's component size for a setting: medium → middle, mini → small (antd has three sizes). */
export function antdSize(size: ComponentSize): 'large' | 'middle' | 'small' {
  return size === 'default' ? 'large' : size === 'medium' ? 'middle' : 'small';
}

/** antd's small sizes, and mini's: lower controls and 12 px text, so that mini is visibly smaller than small. */
export const SMALL_CONTROL_HEIGHT = 24;
export const MINI_CONTROL_HEIGHT = 20;
export const MINI_FONT_SIZE = 12;

/** Theme tokens a size adds to antd's: only mini has any (antd has no fourth size). */
export function sizeTokens(size: ComponentSize): { controlHeightSM?: number; fontSize?: number } {
  return size === 'mini' ? { controlHeightSM: MINI_CONTROL_HEIGHT, fontSize: MINI_FONT_SIZE } : {};
}
