import {
  AppstoreAddOutlined,
  BarChartOutlined,
  DownloadOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  FundProjectionScreenOutlined,
  RedoOutlined,
  SaveOutlined,
  SettingOutlined,
  UndoOutlined,
  UploadOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Alert, Badge, Button, Empty, Form, Popover, Result, Select, Space, Spin, Tag, Tooltip } from 'antd';
import { type KeyboardEvent, memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useEngineServices } from '../../engine/index.js';
import { type BigScreenModel, CANVAS_DEFAULTS, isWarning, type Problem } from '../../model/index.js';
import { bigScreenViewerPath } from '../../shared/app-paths';
import { ConflictDialog } from '../conflict-dialog.js';
import { type CloseGuard, useDesignDocument, useEachLoad } from '../document.js';
import { CanvasPanel } from './canvas-panel.js';
import { ChartPanel } from './chart-panel.js';
import { ContainerPanel } from './container-panel.js';
import { DesignCanvas } from './design-canvas.js';
import { DesignerContext, type DesignerEdit, DesignStore } from './fields.js';
import { ChartGallery } from './gallery.js';
import { type History, historyOf, record, redo, seal, undo } from './history.js';
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
import './designer.css';

/**
 * The big-screen designer: edits a screen's disTemplate on the viewer's own renderer, with the
 * page model's problems at the controls they point to, undo and redo, a crash-safe draft in the
 * browser, and a save that refuses to overwrite someone else's newer save without asking.
 */

export const SAVED = '保存成功';
export const EXPORTED = '容器配置已导出到浏览器缓存';
export const IMPORTED = '容器配置导入成功';
export const NOTHING_TO_IMPORT = '未找到本地容器配置';
/** Where 导出容器配置 keeps the layout: one per browser, so it moves between screens. */
export const LAYOUT_KEY = 'wg:lsDesign:layout';
export const draftKey = (id: number) => `wg:lsDesign:draft:${id}`;

type Selection = { kind: 'canvas' } | { kind: 'item'; i: string } | { kind: 'chart'; i: string; chart: number };

interface LoadedScreen extends DesignScreen {
  name: string;
}

type Zoom = 'fit' | number;

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

export interface ScreenDesignerProps {
  lsId: number;
  /** The tag bar's guard: closing the page's tab with unsaved changes asks first. */
  closeGuard?: CloseGuard;
}

export function ScreenDesigner({ lsId, closeGuard }: ScreenDesignerProps) {
  const { data, notify } = useEngineServices();
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
      const row = await data.custom<Record<string, unknown>>({ url: '/api/screen/detail', query: { id: lsId }, signal, silent: true });
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
        const answer = await data.custom<{ version?: unknown }>({
          url: '/api/screen/design',
          method: 'post',
          payload: { id: lsId, disTemplate: JSON.stringify(current), ...(version === undefined ? {} : { version }) },
          silent: true,
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

  // ----- drawing -----
  const load = lifecycle.load;
  if (load.status === 'loading' || (load.status === 'ready' && taken !== lifecycle.loads))
    return (
      <Spin tip="正在加载大屏…" size="large" className="wg-design-loading" fullscreen={false}>
        <div style={{ height: 320 }} />
      </Spin>
    );
  if (load.status === 'error')
    return (
      <Result
        status="error"
        title="大屏加载失败"
        subTitle={load.message}
        extra={
          <Button type="primary" onClick={() => lifecycle.reload()}>
            重试
          </Button>
        }
      />
    );
  if (screen.type !== 2) return <Result status="warning" title="该页面不是大屏" subTitle="只有类型为大屏（2）的页面可以在这里设计" />;

  const width = Math.max(1, Number(template.canvasConfigure.basic.width) || CANVAS_DEFAULTS.basic.width);
  const fitScale = paneWidth > 0 ? Math.max(0.05, (paneWidth - 32) / width) : 0.5;
  const scale = zoom === 'fit' ? fitScale : zoom;
  const chart = selection.kind === 'chart' && item ? item.chart[selection.chart] : undefined;

  return (
    <DesignerContext.Provider value={designer}>
      <div className="wg-design" data-dirty={dirty || undefined}>
        <Toolbar
          name={screen.name}
          dirty={dirty}
          canUndo={history.past.length > 0}
          canRedo={history.future.length > 0}
          canvasSelected={selection.kind === 'canvas'}
          problems={checked.problems}
          saving={lifecycle.saving}
          panelHidden={panelHidden}
          zoom={zoom}
          showProblems={showProblems}
          actions={actions}
        />
        {errors.length > 0 && (
          <Alert
            type="error"
            showIcon
            className="wg-design-alert"
            title={`大屏配置有 ${errors.length} 个错误，修正后才能保存`}
            description={errors[0]?.message}
            action={
              <Button size="small" onClick={() => setShowProblems(true)}>
                查看
              </Button>
            }
          />
        )}
        <div className="wg-design-body">
          <div ref={setPane} className="wg-design-pane">
            {model ? (
              <DesignCanvas
                model={model}
                template={canvasTemplate}
                glide={byGrid}
                scale={scale}
                selected={selectedItem}
                onSelect={onSelect}
                onCells={onCells}
                onKeyDown={onCanvasKey}
              />
            ) : (
              <Empty description="大屏配置无法读取，请查看配置问题" />
            )}
            {template.layout.length === 0 && <div className="wg-design-hint">点击“添加容器”或“添加图表”开始设计</div>}
          </div>
          {!panelHidden && (
            <SideBar
              kind={selection.kind === 'chart' && chart ? 'chart' : item ? 'item' : 'canvas'}
              index={itemIndex}
              i={item?.i ?? ''}
              chart={selection.kind === 'chart' ? selection.chart : -1}
              actions={panelActions}
            />
          )}
        </div>
        <ChartGallery open={gallery} target={item?.i} onPick={onPickChart} onClose={closeGallery} />
        <ConflictDialog document={lifecycle} noun="大屏" work="设计" onOverwrite={() => void save(true)} />
      </div>
    </DesignerContext.Provider>
  );
}

interface ToolbarActions {
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

interface ToolbarProps {
  name: string;
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  canvasSelected: boolean;
  problems: readonly Problem[];
  saving: boolean;
  panelHidden: boolean;
  zoom: Zoom;
  showProblems: boolean;
  actions: ToolbarActions;
}

/** The header: the screen's name, the unsaved flag and the designer's buttons (these labels exactly). */
const Toolbar = memo(function Toolbar({
  name,
  dirty,
  canUndo,
  canRedo,
  canvasSelected,
  problems,
  saving,
  panelHidden,
  zoom,
  showProblems,
  actions,
}: ToolbarProps) {
  const errors = problems.filter((p) => !isWarning(p));
  const problemList = (
    <ul className="wg-design-problems">
      {problems.map((p: Problem) => (
        <li key={`${p.pointer}:${p.message}`}>
          <button type="button" className="wg-design-link" onClick={() => actions.pickProblem(p.pointer)}>
            <Tag color={isWarning(p) ? 'warning' : 'error'}>{isWarning(p) ? '警告' : '错误'}</Tag>
            {p.message}
            <div className="wg-design-pointer">{p.pointer || '/'}</div>
          </button>
        </li>
      ))}
    </ul>
  );

  return (
    <div className="wg-design-toolbar" role="toolbar" aria-label="大屏设计">
      <div className="wg-design-title">
        <FundProjectionScreenOutlined /> 大屏设计 · {name}
        {dirty && (
          <Tag color="orange" className="wg-design-dirty">
            未保存
          </Tag>
        )}
      </div>
      <Space wrap size={6}>
        <Button icon={<SettingOutlined />} type={canvasSelected ? 'primary' : 'default'} ghost={canvasSelected} onClick={actions.canvas}>
          画布配置
        </Button>
        <Button icon={<AppstoreAddOutlined />} onClick={actions.newContainer}>
          添加容器
        </Button>
        <Button icon={<BarChartOutlined />} onClick={actions.gallery}>
          添加图表
        </Button>
        <Tooltip title="撤销 (Ctrl+Z)">
          <Button icon={<UndoOutlined />} aria-label="撤销" disabled={!canUndo} onClick={actions.undo} />
        </Tooltip>
        <Tooltip title="重做 (Ctrl+Shift+Z / Ctrl+Y)">
          <Button icon={<RedoOutlined />} aria-label="重做" disabled={!canRedo} onClick={actions.redo} />
        </Tooltip>
        <Popover
          open={showProblems && problems.length > 0}
          onOpenChange={actions.showProblems}
          trigger="click"
          title="大屏配置问题"
          content={problemList}
        >
          <Badge count={errors.length} size="small">
            <Button icon={<WarningOutlined />} danger={errors.length > 0} disabled={problems.length === 0} aria-label="配置问题">
              问题
            </Button>
          </Badge>
        </Popover>
        <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={actions.save}>
          保存
        </Button>
        <Button icon={<DownloadOutlined />} onClick={actions.exportLayout}>
          导出容器配置
        </Button>
        <Button icon={<UploadOutlined />} onClick={actions.importLayout}>
          导入容器配置
        </Button>
        <Button icon={panelHidden ? <EyeOutlined /> : <EyeInvisibleOutlined />} onClick={actions.togglePanel}>
          {panelHidden ? '显示配置栏' : '隐藏配置栏'}
        </Button>
        <Select<Zoom>
          aria-label="画布缩放"
          value={zoom}
          style={{ width: 110 }}
          onChange={actions.zoom}
          options={[
            { value: 'fit', label: '适应宽度' },
            { value: 0.25, label: '25%' },
            { value: 0.5, label: '50%' },
            { value: 0.75, label: '75%' },
            { value: 1, label: '100%' },
          ]}
        />
        <Button href={actions.previewUrl} target="_blank" rel="noopener">
          预览
        </Button>
      </Space>
    </div>
  );
});

interface PanelActions {
  selectItem(i: string): void;
  selectChart(i: string, chart: number): void;
  openGallery(): void;
  deleteChart(i: string, chart: number): void;
  deleteContainer(i: string): void;
  seal(): void;
}

/** The configuration side bar: one panel, for the canvas, a container or a chart; redrawn only when the selection changes. */
const SideBar = memo(function SideBar({
  kind,
  index,
  i,
  chart,
  actions,
}: {
  kind: 'canvas' | 'item' | 'chart';
  index: number;
  i: string;
  chart: number;
  actions: PanelActions;
}) {
  return (
    <Form layout="vertical" size="small" component="div" className="wg-design-side" onBlurCapture={actions.seal}>
      {kind === 'chart' ? (
        <ChartPanel
          key={`${i}/${chart}`}
          index={index}
          itemId={i}
          chartIndex={chart}
          onBack={actions.selectItem}
          onDelete={actions.deleteChart}
        />
      ) : kind === 'item' ? (
        <ContainerPanel
          key={i}
          index={index}
          i={i}
          onSelectChart={actions.selectChart}
          onAddChart={actions.openGallery}
          onDeleteChart={actions.deleteChart}
          onDelete={actions.deleteContainer}
        />
      ) : (
        <CanvasPanel />
      )}
    </Form>
  );
});
