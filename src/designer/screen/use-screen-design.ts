import { type KeyboardEvent, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useEngineServices } from '../../engine/index.js';
import { type BigScreenModel, isWarning } from '../../model/index.js';
import { bigScreenViewerPath } from '../../shared/app-paths.js';
import { type CloseGuard, useDesignDocument, useEachLoad } from '../document.js';
import { type DesignerEdit, DesignStore } from './fields.js';
import { type History, historyOf, record, redo, seal, undo } from './history.js';
import { screenDesignApi } from './screen-api.js';
import {
  addChart,
  addContainer,
  type Cell,
  type Checked,
  checkTemplate,
  type DesignScreen,
  type DesignTemplate,
  nudge,
  type Path,
  placeCells,
  removeChart,
  removeContainer,
  setIn,
  shareModel,
  templateOf,
} from './template.js';

/** The messages the designer shows, and where it keeps what it stores in the browser. */
export const SAVED = '保存成功';
export const EXPORTED = '容器配置已导出到浏览器缓存';
export const IMPORTED = '容器配置导入成功';
export const NOTHING_TO_IMPORT = '未找到本地容器配置';
/** Where 导出容器配置 keeps the layout: one per browser, so it moves between screens. */
export const LAYOUT_KEY = 'wg:lsDesign:layout';
export const draftKey = (id: number) => `wg:lsDesign:draft:${id}`;

export type Selection = { kind: 'canvas' } | { kind: 'item'; i: string } | { kind: 'chart'; i: string; chart: number };

interface LoadedScreen extends DesignScreen {
  name: string;
}

export type Zoom = 'fit' | number;

const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.closest('.ant-select') !== null);

/** What is saved, as text: the template as the designer reads it. */
const snapshot = (t: DesignTemplate) => JSON.stringify(t);
const readDraft = (doc: unknown) => (doc && typeof doc === 'object' ? templateOf(doc) : undefined);
/** A state the history returns to is the very object saved, so comparing the objects suffices. */
const changed = (current: DesignTemplate, saved: DesignTemplate) => current !== saved;

/** Which selection a problem's pointer belongs to. */
function selectionOf(pointer: string, t: DesignTemplate): Selection {
  const m = /^\/disTemplate\/layout\/(\d+)(?:\/chart\/(\d+))?/.exec(pointer);
  const item = m ? t.layout[Number(m[1])] : undefined;
  if (!m || !item) return { kind: 'canvas' };
  return m[2] !== undefined ? { kind: 'chart', i: item.i, chart: Number(m[2]) } : { kind: 'item', i: item.i };
}

function useWidth(el: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return width;
}

export interface ToolbarActions {
  canvas(): void;
  newContainer(): void;
  gallery(): void;
  undo(): void;
  redo(): void;
  save(): void;
  exportLayout(): void;
  importLayout(): void;
  togglePanel(): void;
  zoom(z: Zoom): void;
  showProblems(open: boolean): void;
  pickProblem(pointer: string): void;
  previewUrl: string;
}

export interface PanelActions {
  selectItem(i: string): void;
  selectChart(i: string, chart: number): void;
  openGallery(): void;
  deleteChart(i: string, chart: number): void;
  deleteContainer(i: string): void;
  seal(): void;
}

/**
 * The screen designer's state and actions: the document (loading, the draft, leaving and saving), the
 * edit history, the selection, the checked template and the handlers the toolbar, canvas and panels call.
 */
export function useScreenDesign(lsId: number, closeGuard: CloseGuard | undefined) {
  const { notify } = useEngineServices();
  const [screen, setScreen] = useState<LoadedScreen>({ id: lsId, name: '', type: 2 });
  const [history, setHistory] = useState<History<DesignTemplate>>(() => historyOf(templateOf(null)));
  /** The load whose saved template the history starts from. */
  const [taken, setTaken] = useState(0);
  const [selection, setSelection] = useState<Selection>({ kind: 'canvas' });
  const [panelHidden, setPanelHidden] = useState(false);
  const [gallery, setGallery] = useState(false);
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [showProblems, setShowProblems] = useState(false);
  const [pane, setPane] = useState<HTMLDivElement | null>(null);
  const paneWidth = useWidth(pane);
  const shown = useRef(false);
  shown.current = paneWidth > 0;
  const lastModel = useRef<BigScreenModel | undefined>(undefined);

  const template = history.present;

  // ----- the document: loading, the draft, leaving and saving -----
  const confirmClose = useCallback(
    () =>
      notify.confirm({
        title: '大屏设计尚未保存',
        content: '关闭后未保存的修改将丢失（浏览器中保留草稿，下次打开可恢复）。确定关闭吗？',
        okText: '关闭',
        cancelText: '取消',
      }),
    [notify],
  );
  const lifecycle = useDesignDocument<DesignTemplate>({
    id: lsId,
    load: async (signal) => {
      const row: Record<string, unknown> = await screenDesignApi.detail(lsId, signal);
      if (!signal.aborted)
        setScreen({
          id: lsId,
          name: typeof row.name === 'string' ? row.name : `大屏 ${lsId}`,
          type: Number(row.type),
          status: Number(row.status),
        });
      return { doc: templateOf(row.disTemplate), version: typeof row.version === 'number' ? row.version : undefined };
    },
    snapshot,
    changed,
    current: taken === 0 ? undefined : template,
    draftKey: draftKey(lsId),
    readDraft,
    draftDelay: 300,
    reportError: (e) => notify.error(e instanceof Error ? e.message : String(e)),
    closeGuard,
    confirmClose,
  });
  const dirty = lifecycle.dirty;

  // Each load starts the history afresh from the saved template, then offers the draft found.
  const { loads, found, takeDraft, dropDraft } = lifecycle;
  useEachLoad(lifecycle, (saved, n) => {
    setHistory(historyOf(saved));
    setSelection({ kind: 'canvas' });
    setTaken(n);
  });
  const offered = useRef<unknown>(undefined);
  useEffect(() => {
    if (!found || taken !== loads || offered.current === found) return;
    offered.current = found;
    void notify
      .confirm({
        title: '恢复未保存的设计',
        content: `发现 ${new Date(found.at).toLocaleString('zh-CN')} 未保存的设计草稿，是否恢复？`,
        okText: '恢复草稿',
        cancelText: '丢弃草稿',
      })
      .then((restore) => {
        if (!restore) return dropDraft();
        const draft = takeDraft();
        if (draft) setHistory((h) => record(h, draft));
      });
  }, [found, taken, loads, notify, takeDraft, dropDraft]);

  // ----- editing -----
  const apply = useCallback((change: (t: DesignTemplate) => DesignTemplate) => setHistory((h) => record(h, change(h.present))), []);
  const edit = useCallback(
    (path: Path, value: unknown, group?: string) => setHistory((h) => record(h, setIn(h.present, path, value), group)),
    [],
  );
  // What the grid itself just placed is drawn at once (so a dropped container does not jump back);
  // any other change reaches the canvas at low priority, with the charts' models. A state the history
  // brings back is not the grid's placement, even when it once was.
  const placedByGrid = useRef<DesignTemplate | null>(null);
  const doUndo = useCallback(() => {
    placedByGrid.current = null;
    setHistory(undo);
  }, []);
  const doRedo = useCallback(() => {
    placedByGrid.current = null;
    setHistory(redo);
  }, []);

  // The canvas and the problems follow the edits at low priority, so typing and undo stay quick.
  const deferred = useDeferredValue(template);
  // A state checked once is not checked again: an undo or a redo returns to a state the history kept.
  const check = useMemo(() => {
    const checks = new WeakMap<DesignTemplate, Checked>();
    return (t: DesignTemplate) => {
      let c = checks.get(t);
      if (!c) {
        c = checkTemplate(screen, t);
        checks.set(t, c);
      }
      return c;
    };
  }, [screen]);
  const checked = useMemo(() => check(deferred), [check, deferred]);
  // Containers whose content did not change keep their model, so their charts are not redrawn.
  const model = useMemo(() => {
    if (checked.model) lastModel.current = shareModel(lastModel.current, checked.model);
    return lastModel.current;
  }, [checked]);
  const errors = checked.problems.filter((p) => !isWarning(p));

  const [store] = useState(() => new DesignStore(template));
  store.update(template, checked.problems);
  useLayoutEffect(() => store.notify());
  const designer = useMemo<DesignerEdit>(() => ({ store, edit, apply }), [store, edit, apply]);

  // Undo and redo anywhere in the designer except while typing in a field (the field undoes its own text).
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      // A designer kept in a hidden tab has no width; reading the observed width forces no layout.
      if (!shown.current || !(e.ctrlKey || e.metaKey) || isTyping(e.target)) return;
      if (document.querySelector('.ant-modal-wrap:not([style*="display: none"])')) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) {
        e.preventDefault();
        doUndo();
      } else if ((key === 'z' && e.shiftKey) || key === 'y') {
        e.preventDefault();
        doRedo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [doUndo, doRedo]);

  const selectedItem = selection.kind === 'canvas' ? undefined : selection.i;
  const itemIndex = selectedItem === undefined ? -1 : template.layout.findIndex((x) => x.i === selectedItem);
  const item = itemIndex >= 0 ? template.layout[itemIndex] : undefined;

  const onSelect = useCallback(
    (i: string | undefined) =>
      setSelection((s) => (i === undefined ? { kind: 'canvas' } : s.kind !== 'canvas' && s.i === i ? s : { kind: 'item', i })),
    [],
  );
  const onCells = useCallback(
    (cells: Cell[]) =>
      setHistory((h) => {
        const next = placeCells(h.present, cells);
        placedByGrid.current = next;
        return record(h, next);
      }),
    [],
  );
  const byGrid = template === placedByGrid.current;
  const canvasTemplate = byGrid ? template : deferred;

  const confirmDeleteContainer = useCallback(
    async (i: string) => {
      const ok = await notify.confirm({
        title: '删除容器',
        content: `确定删除容器 ${i} 及其中的图表吗？`,
        okText: '删除',
        cancelText: '取消',
      });
      if (!ok) return;
      apply((t) => removeContainer(t, i));
      setSelection({ kind: 'canvas' });
    },
    [notify, apply],
  );
  const confirmDeleteChart = useCallback(
    async (i: string, chart: number) => {
      const ok = await notify.confirm({
        title: '删除图表',
        content: `确定删除容器 ${i} 的第 ${chart + 1} 个图表吗？`,
        okText: '删除',
        cancelText: '取消',
      });
      if (!ok) return;
      apply((t) => removeChart(t, i, chart));
      setSelection({ kind: 'item', i });
    },
    [notify, apply],
  );
  const selectChart = useCallback((i: string, chart: number) => setSelection({ kind: 'chart', i, chart }), []);
  const selectItem = useCallback((i: string) => setSelection({ kind: 'item', i }), []);
  const openGallery = useCallback(() => setGallery(true), []);
  const deleteChart = useCallback((i: string, chart: number) => void confirmDeleteChart(i, chart), [confirmDeleteChart]);
  const deleteContainer = useCallback((i: string) => void confirmDeleteContainer(i), [confirmDeleteContainer]);

  const canvasKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (isTyping(e.target) || !item) return;
    const step = e.shiftKey ? 5 : 1;
    const move: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const by = move[e.key];
    if (by) {
      e.preventDefault();
      const i = item.i;
      apply((t) => nudge(t, i, by[0], by[1]));
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      void confirmDeleteContainer(item.i);
    }
  };

  const onKeyRef = useRef(canvasKey);
  onKeyRef.current = canvasKey;
  const onCanvasKey = useCallback((e: KeyboardEvent<HTMLDivElement>) => onKeyRef.current(e), []);

  const newContainer = () => {
    const r = addContainer(template);
    setHistory((h) => record(h, r.template));
    setSelection({ kind: 'item', i: r.i });
  };

  /** Adds a chart from the gallery to the selected container, or to a new one. */
  const pickChart = (kind: string) => {
    setGallery(false);
    let t = template;
    let target = item?.i;
    if (!target) {
      const r = addContainer(t);
      t = r.template;
      target = r.i;
    }
    t = addChart(t, target, kind);
    const chartAt = (t.layout.find((x) => x.i === target)?.chart.length ?? 1) - 1;
    setHistory((h) => record(h, t));
    setSelection({ kind: 'chart', i: target, chart: chartAt });
  };

  const pickRef = useRef(pickChart);
  pickRef.current = pickChart;
  const onPickChart = useCallback((kind: string) => pickRef.current(kind), []);
  const closeGallery = useCallback(() => setGallery(false), []);

  // ----- saving, export and import -----
  const save = async (overwrite = false) => {
    const current = history.present;
    const { problems } = check(current);
    const refused = problems.filter((p) => !isWarning(p));
    if (refused.length) {
      notify.error(`大屏配置有 ${refused.length} 个错误，无法保存：${refused[0]?.message}`);
      setShowProblems(true);
      setSelection(selectionOf(refused[0]?.pointer ?? '', current));
      return;
    }
    const result = await lifecycle.save(
      current,
      async (version) => {
        const answer: { version?: unknown } = await screenDesignApi.design({
          id: lsId,
          disTemplate: JSON.stringify(current),
          ...(version === undefined ? {} : { version }),
        });
        return typeof answer?.version === 'number' ? answer.version : undefined;
      },
      overwrite,
    );
    if (result !== 'saved') return;
    setHistory(seal);
    notify.success(SAVED);
  };

  const exportLayout = () => {
    try {
      localStorage.setItem(LAYOUT_KEY, JSON.stringify(template.layout));
      notify.success(EXPORTED);
    } catch (e) {
      notify.error(`容器配置导出失败：${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const importLayout = () => {
    const raw = localStorage.getItem(LAYOUT_KEY);
    let layout: unknown;
    try {
      layout = raw ? JSON.parse(raw) : undefined;
    } catch {
      layout = undefined;
    }
    if (!Array.isArray(layout)) {
      notify.warning(NOTHING_TO_IMPORT);
      return;
    }
    apply((t) => ({ ...t, layout: templateOf({ canvasConfigure: t.canvasConfigure, layout }).layout }));
    setSelection({ kind: 'canvas' });
    notify.success(IMPORTED);
  };

  const panelActions = useMemo<PanelActions>(
    () => ({ selectItem, selectChart, openGallery, deleteChart, deleteContainer, seal: () => setHistory(seal) }),
    [selectItem, selectChart, openGallery, deleteChart, deleteContainer],
  );

  // The toolbar's buttons call the latest handlers through one stable object, so it redraws only when what it shows changes.
  const latest = useRef({
    newContainer,
    save,
    exportLayout,
    importLayout,
    pickProblem: (pointer: string) => setSelection(selectionOf(pointer, template)),
  });
  latest.current = {
    newContainer,
    save,
    exportLayout,
    importLayout,
    pickProblem: (pointer: string) => setSelection(selectionOf(pointer, template)),
  };
  const actions = useMemo<ToolbarActions>(
    () => ({
      canvas: () => setSelection({ kind: 'canvas' }),
      newContainer: () => latest.current.newContainer(),
      gallery: () => setGallery(true),
      undo: doUndo,
      redo: doRedo,
      save: () => void latest.current.save(),
      exportLayout: () => latest.current.exportLayout(),
      importLayout: () => latest.current.importLayout(),
      togglePanel: () => setPanelHidden((v) => !v),
      zoom: setZoom,
      showProblems: setShowProblems,
      pickProblem: (pointer) => latest.current.pickProblem(pointer),
      previewUrl: bigScreenViewerPath(lsId),
    }),
    [doUndo, doRedo, lsId],
  );

  return {
    lifecycle,
    taken,
    screen,
    template,
    history,
    selection,
    selectedItem,
    item,
    itemIndex,
    panelHidden,
    gallery,
    zoom,
    showProblems,
    setShowProblems,
    setPane,
    paneWidth,
    checked,
    model,
    errors,
    designer,
    dirty,
    onSelect,
    onCells,
    byGrid,
    canvasTemplate,
    onCanvasKey,
    onPickChart,
    closeGallery,
    panelActions,
    actions,
    save,
  };
}
