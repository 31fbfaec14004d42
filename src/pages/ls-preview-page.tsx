import { useEffect, useMemo, useState } from 'react';
import { dataViews, screenShare, screens, session } from '../contract/bare.gen';
import { dataViewAnswerOf, ScreenDataProvider, type ScreenDataSource, ScreenView } from '../engine/viewer';
import { type BigScreenModel, DIGITS_TEXT, isWarning, normalizeDefinition, type Problem } from '../model';
import { type CallOptions, contractCaller } from '../request/api';
import { createClient, RequestError } from '../request/client';
import { queryTokenSettled } from '../session/query-token';
import { getToken } from '../session/token';
import { forbiddenPath, loginPath } from '../shared/app-paths';

/**
 * The big-screen viewer, `/lsPreview?lsId=`: a public route outside the shell, the canvas filling the
 * window. It draws a screen only when its status is 1 and it has a design; otherwise it says
 * 该大屏尚未启用 (with where to switch it on, and 启用该大屏 for a user who may edit screens) or
 * 该大屏尚未设计.
 *
 * Two ways in:
 * - a share link (`accessKey`, `timestamp`, `signature` beside `lsId`): the screen and its data come
 *   from the open calls with those four parameters, no session needed; a refused link shows the
 *   server's reason (分享链接已失效, …);
 * - otherwise the session: the signed-in user's token, as the back office's pages use it; a screen the
 *   user's menus do not lead to sends them to the app's /401 with the server's reason.
 *
 * `renderer=svg` draws the charts with ECharts' SVG renderer (walls of many charts).
 *
 * A wall display loads nothing of the back office: no antd, no router, no login page. Opened at its
 * address the viewer has its own page (ls-preview.html, ls-preview-main.tsx); inside the app the
 * router draws the same component.
 */

export const NOT_ENABLED = '该大屏尚未启用';
export const NOT_DESIGNED = '该大屏尚未设计';

// The viewer shows its own panels: no error toasts, no re-login dialog, no jump to /401.
const QUIET: CallOptions = { silent: true, skipAuthHandlers: true };

/** The session token when there is one, and the build's signing secret, as the app's client sends them. */
const api = contractCaller(createClient({ baseUrl: '', getToken, signSecret: import.meta.env.VITE_SIGN_SECRET || undefined }));

type ShareParams = {
  lsId: string;
  accessKey: string;
  timestamp: string;
  signature: string;
};

function shareParamsOf(params: URLSearchParams, lsId: string): ShareParams | undefined {
  const accessKey = params.get('accessKey');
  const timestamp = params.get('timestamp');
  const signature = params.get('signature');
  if (!accessKey && !timestamp && !signature) return undefined;
  return { lsId, accessKey: accessKey ?? '', timestamp: timestamp ?? '', signature: signature ?? '' };
}

/** The share link's open calls: the screen's data views and its city rows, signed by the link. */
function shareSource(link: ShareParams): ScreenDataSource {
  return {
    dataView: async (id, signal) =>
      dataViewAnswerOf(await api(screenShare.data, { query: { ...link, dataViewId: id } }, { ...QUIET, signal })),
    cityInfo: async (_id, signal) => {
      const rows = await api(screenShare.cityInfo, { query: link }, { ...QUIET, signal });
      return Array.isArray(rows) ? rows : [];
    },
  };
}

/** The signed-in user's calls. */
const sessionSource: ScreenDataSource = {
  dataView: async (id, signal) => dataViewAnswerOf(await api(dataViews.detail, { query: { id } }, { ...QUIET, signal })),
  cityInfo: async (id, signal) =>
    id === undefined ? [] : dataViewAnswerOf(await api(dataViews.detail, { query: { id } }, { ...QUIET, signal })).list,
};

type Shown =
  | { kind: 'loading' }
  | { kind: 'screen'; model: BigScreenModel }
  | {
      kind: 'panel';
      title: string;
      detail?: string;
      problems?: Problem[];
      login?: boolean;
      /** Switches the screen on (a user who may edit screens, seeing an unenabled one): resolves once saved. */
      enable?: () => Promise<void>;
    }
  | { kind: 'refused'; code: string };

/** Where a screen is switched on, said under 该大屏尚未启用. */
export const ENABLE_HINT = '在「低代码 › 大屏管理」中编辑该大屏，勾选“启用”并保存后即可预览。';

/** Whether the signed-in user may switch screens on (修改大屏: screen:edit). */
async function mayEditScreens(signal: AbortSignal): Promise<boolean> {
  try {
    const info = await api(session.info, {}, { ...QUIET, signal });
    return info.roles.includes('admin') || info.roles.includes('screen:edit');
  } catch {
    return false;
  }
}

/** What the viewer draws for a screen definition. */
export function judgeScreen(raw: unknown, id: number): Shown {
  const def = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  if (Number(def.status) !== 1) return { kind: 'panel', title: NOT_ENABLED, detail: ENABLE_HINT };
  const result = normalizeDefinition({ kind: 'screen', file: `大屏 ${id}`, json: raw });
  if (result.skipped) return { kind: 'panel', title: NOT_DESIGNED };
  const errors = result.problems.filter((p) => !isWarning(p));
  if (errors.length) return { kind: 'panel', title: '大屏定义有误，无法显示', problems: errors };
  if (result.page?.kind !== 'bigScreen') return { kind: 'panel', title: '该页面不是大屏' };
  return { kind: 'screen', model: result.page };
}

function failureOf(e: unknown, shared: boolean): Shown {
  if (!(e instanceof RequestError)) return { kind: 'panel', title: '大屏加载失败', detail: e instanceof Error ? e.message : String(e) };
  if (shared) return { kind: 'panel', title: e.message || '分享链接无效' };
  if (e.status === 401) return { kind: 'panel', title: '请登录后查看该大屏，或使用分享链接', login: true };
  if (e.status === 404) return { kind: 'panel', title: '大屏不存在' };
  if (e.status === 403) return { kind: 'refused', code: e.code ?? 'NO_PERMISSION' };
  return { kind: 'panel', title: '大屏加载失败', detail: e.message };
}

function Panel({ shown }: { shown: Extract<Shown, { kind: 'panel' }> }) {
  const [enabling, setEnabling] = useState<'idle' | 'busy' | string>('idle');
  const enable = () => {
    if (!shown.enable) return;
    setEnabling('busy');
    shown.enable().catch((e: unknown) => setEnabling(`启用失败：${e instanceof Error ? e.message : String(e)}`));
  };
  const login = () => {
    const back = `${window.location.pathname}${window.location.search}`;
    window.location.assign(loginPath(back));
  };
  return (
    <div className="wg-screen-panel" role="alert">
      <div className="wg-screen-panel-title">{shown.title}</div>
      {shown.detail && <div className="wg-screen-panel-detail">{shown.detail}</div>}
      {shown.problems && (
        <ul className="wg-screen-panel-detail">
          {shown.problems.map((p) => (
            <li key={`${p.pointer}:${p.message}`}>
              {p.pointer || '/'}：{p.message}
            </li>
          ))}
        </ul>
      )}
      {shown.enable && (
        <button type="button" className="wg-screen-panel-button" onClick={enable} disabled={enabling === 'busy'}>
          启用该大屏
        </button>
      )}
      {enabling !== 'idle' && enabling !== 'busy' && <div className="wg-screen-panel-detail">{enabling}</div>}
      {shown.login && (
        <button type="button" className="wg-screen-panel-button" onClick={login}>
          去登录
        </button>
      )}
    </div>
  );
}

/** `search`: the address's query (`?lsId=…`). */
export function LsPreviewPage({ search }: { search: string }) {
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const lsIdText = params.get('lsId') ?? params.get('id') ?? '';
  const link = useMemo(() => shareParamsOf(params, lsIdText), [params, lsIdText]);
  const linkKey = link ? `${link.accessKey}&${link.timestamp}&${link.signature}` : '';
  const renderer = params.get('renderer') === 'svg' ? 'svg' : 'canvas';
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });
  const [round, setRound] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: linkKey stands for the link's parameters
  useEffect(() => {
    const id = Number(lsIdText);
    if (!DIGITS_TEXT.test(lsIdText) || id < 1) {
      setShown({ kind: 'panel', title: '请指定大屏编号（lsId）' });
      return;
    }
    if (!link && !getToken()) {
      setShown({ kind: 'panel', title: '请登录后查看该大屏，或使用分享链接', login: true });
      return;
    }
    const controller = new AbortController();
    setShown({ kind: 'loading' });
    // With the session's token once a link's token of another account has been decided.
    const load = link
      ? api(screenShare.screen, { query: link }, { ...QUIET, signal: controller.signal })
      : queryTokenSettled().then(() => api(screens.detail, { query: { id } }, { ...QUIET, signal: controller.signal }));
    load.then(
      async (raw) => {
        const judged = judgeScreen(raw, id);
        // Switched on from here by a user who may edit screens (never through a share link).
        if (!link && judged.kind === 'panel' && judged.title === NOT_ENABLED && (await mayEditScreens(controller.signal))) {
          const row = raw as { id: number; name: string; type: number; version?: number };
          judged.enable = async () => {
            await api(screens.update, { body: { id: row.id, name: row.name, type: row.type, status: 1, version: row.version } }, QUIET);
            setRound((r) => r + 1);
          };
        }
        if (!controller.signal.aborted) setShown(judged);
      },
      (e: unknown) => !controller.signal.aborted && setShown(failureOf(e, !!link)),
    );
    return () => controller.abort();
  }, [lsIdText, linkKey, round]);

  const source = useMemo(() => (link ? shareSource(link) : sessionSource), [link]);

  // A signed-in user refused the screen goes to the app's /401 with the reason, like every refused page.
  useEffect(() => {
    if (shown.kind === 'refused')
      window.location.replace(forbiddenPath(shown.code, `${window.location.pathname}${window.location.search}`));
  }, [shown]);

  useEffect(() => {
    if (shown.kind !== 'screen') return;
    const previous = document.title;
    document.title = shown.model.title;
    return () => {
      document.title = previous;
    };
  }, [shown]);

  if (shown.kind === 'loading' || shown.kind === 'refused') return <div className="wg-screen-panel" aria-busy="true" />;
  if (shown.kind === 'panel') return <Panel shown={shown} />;
  return (
    <ScreenDataProvider source={source}>
      <ScreenView model={shown.model} fit="window" renderer={renderer} />
    </ScreenDataProvider>
  );
}
