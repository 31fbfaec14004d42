/**
 * The review page (review.html): draws one page of a definition from the built engine, with sample
 * data and no server, for `wastegen review` to photograph. The CLI drives it through
 * `window.wastegenReview`: render a definition, wait until it is still, run the checks.
 */
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { dataViews, files, general, generation, screens } from '../contract/bare.gen';
import {
  type BigScreenModel,
  ChartMotionContext,
  DICT_MAP_URL,
  type EngineServices,
  EngineServicesProvider,
  FormPage,
  type FormPageModel,
  type ListPageModel,
  REGION_TREE_URL,
  ResolvedScreen,
  resolveDefinition,
  ScreenDataProvider,
  screenDataOf,
  ViewFromDefinition,
} from '../engine';
import { MODAL_CONFIG, SELECT_CONFIG } from '../settings/component-config';
import { DEFAULT_THEME } from '../settings/settings-store';
import type { ReviewDialogAction as DialogAction, ReviewRenderInput as RenderInput, ReviewApi } from '../shared/review-page';
import { checkPage } from './checks';
import { type SampleWorld, sampleProvider } from './sample-data';
import './review.css';

dayjs.locale('zh-cn');

declare global {
  interface Window {
    wastegenReview?: ReviewApi;
  }
}

/**
 * Short timers the page has set and that have not fired yet: a spinner's delay, a debounce, a
 * deferred focus. The page is not still while one is pending (a repeating interval is not counted).
 *
 * They run on a clock of their own that jumps to the next one due instead of waiting for it: each
 * still runs in a task of its own and in the order of its due time, so the page ends in the state
 * real time would give, without the frames spent waiting (the clock is fixed, so no page can tell).
 */
interface ShortTimer {
  due: number;
  seq: number;
  run: () => void;
}
const timers = new Map<number, ShortTimer>();
const SHORT_TIMER_MS = 1000;
{
  const set = window.setTimeout.bind(window);
  const clear = window.clearTimeout.bind(window);
  let now = 0;
  let seq = 0;
  // Above the browser's own ids, so clearTimeout can tell them apart.
  let nextId = 1_000_000_000;
  const pump = new MessageChannel();
  let posted = false;
  const post = () => {
    if (!posted && timers.size > 0) {
      posted = true;
      pump.port2.postMessage(null);
    }
  };
  pump.port1.onmessage = () => {
    posted = false;
    let first: [number, ShortTimer] | undefined;
    for (const e of timers) if (!first || e[1].due < first[1].due || (e[1].due === first[1].due && e[1].seq < first[1].seq)) first = e;
    if (!first) return;
    timers.delete(first[0]);
    now = first[1].due;
    post();
    first[1].run();
  };
  window.setTimeout = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
    const delay = Math.max(0, Number(ms) || 0);
    if (delay > SHORT_TIMER_MS || typeof handler !== 'function') return set(handler, ms, ...args);
    const id = nextId++;
    timers.set(id, { due: now + delay, seq: seq++, run: () => (handler as (...a: unknown[]) => void)(...args) });
    post();
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined && timers.delete(id)) return;
    clear(id);
  }) as typeof window.clearTimeout;
}

const container = document.getElementById('root');
if (!container) throw new Error('review.html has no #root element');
let root: Root | undefined;
/** Calls of the page drawn now not yet answered (a page drawn before keeps its own count). */
let calls = { pending: 0 };
/** What the page drawn now shows once it is ready. */
let expected: Expect = 'page';

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

function world(input: RenderInput): SampleWorld {
  const views = new Map(Object.entries(input.views).map(([k, v]) => [Number(k), v]));
  const screensById = new Map(Object.entries(input.screens).map(([k, v]) => [Number(k), v]));
  const lists = new Map<number, ListPageModel | undefined>();
  const listOf = (id: number) => {
    if (!lists.has(id)) {
      const r = resolveDefinition('view', views.get(id), { runtimeOnly: true });
      lists.set(id, r.kind === 'runtime' && r.page.kind === 'list' ? r.page : undefined);
    }
    return lists.get(id);
  };
  let screenModel: BigScreenModel | undefined;
  if (input.kind === 'screen') {
    const r = resolveDefinition('screen', screensById.get(input.id), { runtimeOnly: true });
    if (r.kind === 'runtime' && r.page.kind === 'bigScreen') screenModel = r.page;
  }
  return {
    views,
    screens: screensById,
    listOf,
    screenModel,
    urls: {
      viewDetail: generation.detail.path,
      screenDetail: screens.detail.path,
      dictMap: DICT_MAP_URL,
      regionTree: REGION_TREE_URL,
      dataView: dataViews.detail.path,
      dynamicQuery: general.dynamicQuery.path,
      preview: files.preview.path,
    },
  };
}

function services(w: SampleWorld, search: string): EngineServices {
  const mine = { pending: 0 };
  calls = mine;
  const data = sampleProvider(w, (d) => {
    mine.pending += d;
  });
  const location = { pathname: '/review', search };
  return {
    data,
    download: async () => false,
    saveFile: () => {},
    notify: { success: () => {}, error: () => {}, warning: () => {}, info: () => {}, confirm: async () => false },
    can: () => true,
    navigation: { useLocation: () => location, navigate: () => {}, closePage: () => {} },
    routes: [],
  };
}

function titleOf(raw: unknown, fallback: string): string {
  const r = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  return typeof r.name === 'string' && r.name ? r.name : fallback;
}

/** The back office around a page, at its real sizes, so a page gets the width it gets there. */
function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="review-shell">
      <div className="review-aside">
        <div className="review-aside-logo">危废管理平台</div>
        <div className="review-aside-item">首页</div>
        <div className="review-aside-item is-active">{title}</div>
      </div>
      <div className="review-main">
        <div className="review-navbar">首页 / {title}</div>
        <div className="review-tags">
          <span className="review-tag">{title}</span>
        </div>
        <div className="review-content">{children}</div>
      </div>
    </div>
  );
}

function Page({ input, w }: { input: RenderInput; w: SampleWorld }) {
  if (input.page === 'list') return <ViewFromDefinition raw={w.views.get(input.id)} runtimeOnly />;
  if (input.page === 'form') {
    const model: FormPageModel = {
      kind: 'form',
      screenId: 0,
      title: titleOf(w.views.get(input.id), `视图 ${input.id}`),
      path: '/review',
      source: { file: '', hash: '', status: 1 },
      formView: input.id,
    };
    return <FormPage model={model} />;
  }
  return <ResolvedScreen screenId={input.id} />;
}

async function render(input: RenderInput): Promise<{ title: string }> {
  root?.unmount();
  const w = world(input);
  const raw = input.kind === 'view' ? w.views.get(input.id) : w.screens.get(input.id);
  const title = titleOf(raw, `${input.kind === 'view' ? '视图' : '页面'} ${input.id}`);
  // The full-page form opens the view's first sample record.
  const key = input.page === 'form' ? w.listOf(input.id)?.form.dialog.key : undefined;
  const s = services(w, key ? `?${encodeURIComponent(key)}=1001` : '');
  const bare = input.kind === 'screen' && w.screenModel !== undefined;
  const page = <Page input={input} w={w} />;
  expected = input.page === 'list' ? 'list' : input.page === 'form' ? 'form' : 'screen';
  root = createRoot(container as HTMLElement);
  root.render(
    <StrictMode>
      <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: DEFAULT_THEME, motion: false } }} {...SELECT_CONFIG} {...MODAL_CONFIG}>
        <EngineServicesProvider services={s}>
          <ChartMotionContext.Provider value={false}>
            <ScreenDataProvider source={screenDataOf(s.data)}>
              {bare ? <div className="review-screen">{page}</div> : <Shell title={title}>{page}</Shell>}
            </ScreenDataProvider>
          </ChartMotionContext.Provider>
        </EngineServicesProvider>
      </ConfigProvider>
    </StrictMode>,
  );
  await settle();
  return { title };
}

/** What a state shows when it is drawn in full (an error panel or result counts: it is what staff would see). */
type Expect = 'page' | 'list' | 'form' | 'screen' | 'dialog' | 'no-dialog';

const OUTCOME = '.ant-result, .engine-definition-problems';
const READY: Record<Expect, () => boolean> = {
  page: () => true,
  list: () => document.querySelector(`.engine-list-page[data-loading="false"], ${OUTCOME}`) !== null,
  form: () => document.querySelector(`[data-page-kind="form"] .ant-form, ${OUTCOME}`) !== null,
  screen: () =>
    document.querySelector(
      `.wg-screen-item, .engine-container-page .engine-list-page[data-loading="false"], [data-page-kind="form"] .ant-form, ${OUTCOME}`,
    ) !== null,
  dialog: () => document.querySelector('.ant-modal .ant-modal-body .ant-form, .ant-modal .ant-modal-body .ant-result') !== null,
  'no-dialog': () =>
    ![...document.querySelectorAll('.ant-modal-wrap')].some(
      (w) => (w as HTMLElement).offsetParent !== null || getComputedStyle(w).display !== 'none',
    ),
};
/**
 * Frames a state may take to become complete and still, and the time they must at least span: past
 * both it is drawn as it is then. The CLI may make frames as fast as the browser draws them, so a
 * wait on a picture or font loading is not cut short by frames alone.
 */
const FRAME_CAP = 300;
const FRAME_CAP_MS = 5000;
const BUSY = '.ant-spin-spinning, [data-loading="true"], [data-status="loading"]';

/**
 * Still: the state's content is there, no sample call or short timer is pending, nothing has the
 * focus, no spinner or loading list shows,
 * every picture and font is loaded, and nothing changed for two frames (React's effects run between them).
 */
const notes: string[] = [];

async function settle(expect: Expect = expected): Promise<void> {
  let changed = true;
  const observer = new MutationObserver(() => {
    changed = true;
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    let still = 0;
    // Bounded: a page that never stops changing (a scrolling list) is drawn as it is then.
    const start = performance.now();
    for (let i = 0; still < 2 && (i < FRAME_CAP || performance.now() - start < FRAME_CAP_MS); i++) {
      changed = false;
      await frame();
      await document.fonts.ready;
      // Focus is not part of a picture: a field focused by a dialog would draw its focus ring on some runs only.
      const active = document.activeElement as HTMLElement | null;
      if (active && active !== document.body) {
        active.blur();
        changed = true;
      }
      const busy =
        calls.pending > 0 ||
        timers.size > 0 ||
        document.querySelector(BUSY) !== null ||
        [...document.images].some((img) => !img.complete) ||
        !READY[expect]();
      still = changed || busy ? 0 : still + 1;
    }
    if (still < 2) notes.push(`页面在 ${FRAME_CAP} 帧内没有画完（${expect}），按当时的样子拍下`);
  } finally {
    observer.disconnect();
  }
}

const squeeze = (el: Element) => (el.textContent ?? '').replace(/\s+/g, '');

function button(scope: ParentNode | null | undefined, text: string): HTMLElement | undefined {
  return [...(scope?.querySelectorAll<HTMLElement>('button, [role=menuitem]') ?? [])].find((b) => squeeze(b) === text);
}

async function open(action: DialogAction): Promise<boolean> {
  const list = document.querySelector('.engine-list-page');
  let target: HTMLElement | undefined;
  if (action === 'add') target = button(list?.querySelector('.engine-list-toolbar') ?? list, '新增');
  else {
    const row = list?.querySelectorAll('.engine-row')[action === 'edit-other' ? 1 : 0];
    const text = action === 'look' ? '查看' : '编辑';
    target = button(row, text);
    const more = target ? undefined : button(row, '更多');
    if (more) {
      more.click();
      await settle('page');
      target = button(document.querySelector('.ant-dropdown:not(.ant-dropdown-hidden)'), text);
      if (!target) {
        more.click();
        await settle('page');
      }
    }
  }
  if (!target) return false;
  target.click();
  await settle('dialog');
  return document.querySelector('.ant-modal') !== null;
}

async function close(): Promise<void> {
  for (const x of document.querySelectorAll<HTMLElement>('.ant-modal-close')) x.click();
  await settle('no-dialog');
}

window.wastegenReview = { render, open, close, settle, check: checkPage, notes: () => notes.splice(0) };
