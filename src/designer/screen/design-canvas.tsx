import {
  type FocusEvent,
  type KeyboardEvent,
  memo,
  type PointerEvent,
  type ReactElement,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { GridLayout, type Layout, noCompactor, type ResizeHandleAxis } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import {
  ChartMotionContext,
  cssUrl,
  type Grid,
  gridOf,
  headerHeightOf,
  itemRect,
  ScaleContext,
  ScaleStore,
  SchedulerContext,
  ScreenContainer,
  type ScreenDataSource,
  ScreenHeader,
  ScreenScheduler,
  sourcesOf,
  useScreenDataSource,
} from '../../engine/index.js';
import { type BigScreenModel, CANVAS_DEFAULTS, type LayoutItemModel, type ThemeColor } from '../../model/index.js';
import { cachedSource } from './cached-source.js';
import type { Cell, DesignTemplate } from './template.js';

/**
 * The designer's canvas: the viewer's own header and containers, with the containers on a
 * react-grid-layout grid of `defaultCol` columns. The grid is laid out at its real on-screen size
 * (width, row height and margins multiplied by the scale), never inside a CSS transform, so a drag
 * follows the pointer at any scale; only each container's read-only content is scaled.
 *
 * Charts fetch their data once, again every `basic.timer` seconds when auto update is on, keep it
 * across edits and draw without animation; a container whose model did not change keeps its element, so selecting, dragging or
 * undoing redraws no chart.
 */

export interface DesignCanvasProps {
  /** The page model of the template (its last readable state). */
  model: BigScreenModel;
  /** The template whose positions the grid shows: what the grid just placed at once, other edits at low priority. */
  template: DesignTemplate;
  /**
   * The positions are the grid's own drag or resize: containers glide into their cells. Any other
   * change (undo, redo, the arrow keys) shows at once.
   */
  glide: boolean;
  scale: number;
  selected?: string;
  onSelect(i: string | undefined): void;
  /** A drag or a resize was released: the grid's positions. */
  onCells(cells: Cell[]): void;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
}

const isAbsolute = (item: { container: { super: unknown } }) => {
  const abs = (item.container.super as { absolute?: unknown }).absolute;
  return typeof abs === 'object' && abs !== null && (abs as { enabled?: unknown }).enabled === true;
};

/** A container's content at design size, scaled into the box the grid gives it. */
const ItemBody = memo(function ItemBody({
  item,
  grid,
  theme,
  scale,
}: {
  item: LayoutItemModel;
  grid: Grid;
  theme: ThemeColor[];
  scale: number;
}) {
  return (
    <div className="wg-design-item-body" style={{ width: `${100 / scale}%`, height: `${100 / scale}%`, transform: `scale(${scale})` }}>
      <ScreenContainer item={item} grid={grid} theme={theme} renderer="canvas" fill />
    </div>
  );
});

/**
 * One scheduler per set of data sources (in any order: moving a container reorders the model) and
 * refresh period; answers are cached, and a new scheduler takes over the answers of the one before
 * it, so adding a source fetches only that one and no other chart goes back to loading and redraws.
 * With auto update on, the charts refresh every `basic.timer` seconds, as in the viewer.
 */
function useDesignScheduler(model: BigScreenModel): ScreenScheduler {
  const source = useScreenDataSource();
  const cached = useMemo(() => cachedSource(source), [source]);
  const { autoUpdate, timer } = model.canvas.basic;
  const refreshMs = autoUpdate && timer > 0 ? timer * 1000 : null;
  cached.setMaxAge(refreshMs);
  const charts = model.layout.flatMap((item) => item.charts);
  const specs = sourcesOf(charts, cached);
  const keys = specs
    .map((s) => s.key)
    .sort()
    .join('\n');
  const last = useRef<{ scheduler: ScreenScheduler; cached: ScreenDataSource } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the scheduler changes only when the set of sources or the period does
  const scheduler = useMemo(() => {
    const next = new ScreenScheduler(specs, { refreshMs, staggerMs: 0 });
    // Answers of another data source are not this one's.
    if (last.current?.cached === cached) next.adopt(last.current.scheduler);
    return next;
  }, [keys, cached, refreshMs]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: cached goes with the scheduler made from it
  useEffect(() => {
    last.current = { scheduler, cached };
    scheduler.start();
    return () => scheduler.stop();
  }, [scheduler]);
  return scheduler;
}

const DRAG_CONFIG = { enabled: true, bounded: false, threshold: 3 } as const;
const RESIZE_CONFIG = { enabled: true, handles: ['se', 'e', 's'] } satisfies { enabled: boolean; handles: ResizeHandleAxis[] };

/** The container a pointer or focus event came from. */
const itemOf = (e: { currentTarget: Element }) => e.currentTarget.getAttribute('data-design-item') ?? undefined;

/**
 * What every container's element carries, on the grid or placed absolutely: chosen by pointer or by
 * Tab (one set of handlers for all, reading which container from the element), pressed while selected.
 */
function itemAttributes(
  i: string,
  selected: boolean,
  label: string,
  on: { pointerDown(e: PointerEvent<HTMLDivElement>): void; focus(e: FocusEvent<HTMLDivElement>): void },
) {
  return {
    'data-design-item': i,
    role: 'button',
    'aria-pressed': selected,
    tabIndex: 0,
    'aria-label': label,
    onPointerDown: on.pointerDown,
    onFocus: on.focus,
  } as const;
}

interface CachedChild {
  item: LayoutItemModel | undefined;
  empty: boolean;
  selected: boolean;
  element: ReactElement;
}

export const DesignCanvas = memo(function DesignCanvas({
  model,
  template,
  glide,
  scale,
  selected,
  onSelect,
  onCells,
  onKeyDown,
}: DesignCanvasProps) {
  const scheduler = useDesignScheduler(model);
  const [scaleStore] = useState(() => new ScaleStore());
  scaleStore.set(scale);
  const basic = template.canvasConfigure.basic;
  const { canvas } = model;
  const grid = useMemo(() => gridOf(canvas), [canvas]);
  const top = headerHeightOf(canvas);
  const width = Math.max(1, Number(basic.width) || CANVAS_DEFAULTS.basic.width);
  const height = Math.max(1, Number(basic.height) || 1080);
  const cols = grid.cols;
  const m = grid.margin * scale;

  const byId = useMemo(() => new Map(model.layout.map((item) => [item.i, item])), [model]);
  const flowing = useMemo(() => template.layout.filter((item) => !isAbsolute(item)), [template.layout]);
  const placed = useMemo(() => template.layout.filter(isAbsolute), [template.layout]);
  const layout = useMemo<Layout>(() => flowing.map(({ i, x, y, w, h }) => ({ i, x, y, w, h })), [flowing]);

  const theme = canvas.themeColor;
  // One set of handlers for every container: they read which one from the element.
  const onItemPointerDown = useCallback(
    (e: PointerEvent<HTMLDivElement>) => {
      e.stopPropagation();
      onSelect(itemOf(e));
    },
    [onSelect],
  );
  const onItemFocus = useCallback((e: FocusEvent<HTMLDivElement>) => onSelect(itemOf(e)), [onSelect]);
  const on = useMemo(() => ({ pointerDown: onItemPointerDown, focus: onItemFocus }), [onItemPointerDown, onItemFocus]);

  // A container's element is kept while its model, its emptiness and whether it is selected stay the
  // same, so react-grid-layout redraws only the containers an edit or a selection touched; the
  // elements are made again when the grid, the theme, the scale or the handlers change.
  const cache = useRef<{ shared: unknown[]; children: Map<string, CachedChild> }>({ shared: [], children: new Map() });
  const shared = [grid, theme, scale, on];
  if (shared.some((v, n) => v !== cache.current.shared[n])) cache.current = { shared, children: new Map() };
  const kept = cache.current.children;
  const children: ReactElement[] = [];
  const nextChildren = new Map<string, CachedChild>();
  for (const t of flowing) {
    const item = byId.get(t.i);
    const empty = t.chart.length === 0;
    const isSelected = t.i === selected;
    const old = kept.get(t.i);
    const child =
      old && old.item === item && old.empty === empty && old.selected === isSelected
        ? old
        : {
            item,
            empty,
            selected: isSelected,
            element: (
              // react-grid-layout drags a div: the container is a div with the role of a button.
              <div
                key={t.i}
                className={`wg-design-item${isSelected ? ' selected' : ''}`}
                {...itemAttributes(t.i, isSelected, `容器 ${t.i}`, on)}
              >
                {item && <ItemBody item={item} grid={grid} theme={theme} scale={scale} />}
                {empty && <div className="wg-design-item-empty">空容器：点击“添加图表”</div>}
              </div>
            ),
          };
    nextChildren.set(t.i, child);
    children.push(child.element);
  }
  cache.current.children = nextChildren;

  const gridConfig = useMemo(
    () => ({
      cols,
      rowHeight: grid.rowHeight * scale,
      margin: [m, m] as const,
      containerPadding: [m, m] as const,
      // A drag or a resize stops at the canvas's last row: below it the viewer shows nothing.
      maxRows: grid.rows,
    }),
    [cols, grid.rows, grid.rowHeight, scale, m],
  );
  const gridStyle = useMemo(
    () => ({ position: 'absolute', left: 0, top: top * scale, width: width * scale, height: Math.max(0, height - top) * scale }) as const,
    [top, scale, width, height],
  );
  const onStop = useCallback((next: Layout) => onCells([...next]), [onCells]);
  const onStagePointerDown = useCallback(() => onSelect(undefined), [onSelect]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the canvas takes arrow keys and Delete for the selected container
    <div
      className="wg-design-stage"
      style={{ width: width * scale, height: height * scale }}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onPointerDown={onStagePointerDown}
      data-scale={scale}
    >
      <div
        className="wg-screen-canvas wg-design-canvas"
        style={{
          width: width * scale,
          height: height * scale,
          backgroundColor: typeof basic.bgColor === 'string' && basic.bgColor ? basic.bgColor : undefined,
          backgroundImage: typeof basic.bgImg === 'string' && basic.bgImg ? cssUrl(basic.bgImg) : undefined,
        }}
      >
        <div className="wg-design-header" style={{ width, transform: `scale(${scale})` }}>
          <ScreenHeader canvas={canvas} title={model.title} />
        </div>
        <ScaleContext.Provider value={scaleStore}>
          <SchedulerContext.Provider value={scheduler}>
            <ChartMotionContext.Provider value={false}>
              <GridLayout
                className={`wg-design-grid${glide ? ' glide' : ''}`}
                width={width * scale}
                layout={layout}
                gridConfig={gridConfig}
                compactor={noCompactor}
                dragConfig={DRAG_CONFIG}
                resizeConfig={RESIZE_CONFIG}
                autoSize={false}
                style={gridStyle}
                onDragStop={onStop}
                onResizeStop={onStop}
              >
                {children}
              </GridLayout>
              {placed.map((t) => {
                const item = byId.get(t.i);
                if (!item) return null;
                // The model of an unchanged container keeps its old place: the place comes from the template.
                const rect = itemRect({ x: t.x, y: t.y, w: t.w, h: t.h, container: item.container }, grid);
                return (
                  <div
                    key={t.i}
                    className={`wg-design-item wg-design-absolute${t.i === selected ? ' selected' : ''}`}
                    {...itemAttributes(t.i, t.i === selected, `容器 ${t.i}（绝对定位）`, on)}
                    style={{
                      left: rect.left * scale,
                      top: (top + rect.top) * scale,
                      width: rect.width * scale,
                      height: rect.height * scale,
                    }}
                  >
                    <ItemBody item={item} grid={grid} theme={theme} scale={scale} />
                  </div>
                );
              })}
            </ChartMotionContext.Provider>
          </SchedulerContext.Provider>
        </ScaleContext.Provider>
      </div>
    </div>
  );
});
