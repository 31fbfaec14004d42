import {
  type CSSProperties,
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { BigScreenModel, CanvasModel, ChartModel, LayoutItemModel, ThemeColor } from '../../model/index.js';
import { paletteOf } from './chart-options.js';
import { CityTransaction, FigureBlocks, ScrollList } from './charts/dom-charts.js';
import { type DataViewAnswer, useScreenDataSource } from './data-source.js';
import { useClock } from './format.js';
import {
  backgroundOf,
  cssBackground,
  cssUrl,
  fitCanvas,
  flagOf,
  type Grid,
  gridOf,
  headerHeightOf,
  itemRect,
  lengthOf,
  numberOf,
  rectStyle,
  textOf,
} from './layout.js';
import { afterNextPaint, SCREEN_MARKS, screenMark } from './marks.js';
import { ScaleContext, ScaleStore } from './scale.js';
import {
  documentVisibility,
  LOADING,
  ScreenScheduler,
  type SourceState,
  sourceKeyOf,
  sourcesOf,
  type VisibilityWatch,
} from './scheduler.js';
import type { ChartRenderer } from './use-echarts.js';
import './screen.css';

/**
 * The big-screen renderer: draws a BigScreenModel. The canvas keeps its design size and is scaled as
 * a whole to the box it is given (the window, or its parent), keeping the aspect ratio, letterboxed,
 * following resizes with a 100 ms debounce. One scheduler per screen feeds the charts.
 */

export const CANVAS_RESIZE_DEBOUNCE_MS = 100;

export interface ScreenViewProps {
  model: BigScreenModel;
  /** 'window': fills the window (the viewer); 'parent': fills its parent's width at the canvas's aspect ratio. */
  fit?: 'window' | 'parent';
  /** ECharts renderer; 'svg' suits walls of many charts. */
  renderer?: ChartRenderer;
}

/** The scheduler the charts below read their data from (the designer supplies its own). */
export const SchedulerContext = createContext<ScreenScheduler | null>(null);

/** Sample charts (no data source) are always ready. */
const SAMPLE: SourceState = Object.freeze({ status: 'ready', stale: false, version: 1 });

function useSourceState(key: string | undefined): SourceState {
  const scheduler = useContext(SchedulerContext);
  const subscribe = useCallback(
    (listener: () => void) => (key && scheduler ? scheduler.subscribe(key, listener) : () => {}),
    [key, scheduler],
  );
  return useSyncExternalStore(
    subscribe,
    () => (key && scheduler ? scheduler.get(key) : key ? LOADING : SAMPLE),
    () => (key ? LOADING : SAMPLE),
  );
}

const ECHARTS_KINDS = new Set<ChartModel['kind']>(['lineBar', 'pie', 'radar']);
const FIGURE_KINDS = new Set<ChartModel['kind']>(['siteInfo', 'provinceInfo', 'companyData']);

const subscribeNothing = () => () => {};
/** True in the browser, false in server rendering. */
const useIsClient = () =>
  useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );

const EChartsChart = lazy(() => import('./charts/echarts-chart.js'));

function isAnswer(v: unknown): v is DataViewAnswer {
  return !!v && typeof v === 'object' && Array.isArray((v as DataViewAnswer).list);
}

function rowsOf(v: unknown): Record<string, unknown>[] {
  if (Array.isArray(v)) return v as Record<string, unknown>[];
  return isAnswer(v) ? v.list : [];
}

/** One chart: its data source's state, the kind's drawing, and a small note when loading failed or went stale. */
function ScreenChart({ chart, id, theme, renderer }: { chart: ChartModel; id: string; theme: ThemeColor[]; renderer: ChartRenderer }) {
  const key = sourceKeyOf(chart);
  const state = useSourceState(key);
  const palette = useMemo(() => paletteOf(chart, theme), [chart, theme]);
  const data = state.data;
  const answer = isAnswer(data) ? data : Array.isArray(data) ? { columns: Object.keys(data[0] ?? {}), list: data } : undefined;
  // A radar without a data view draws its sample; any other chart needs one.
  const unsourced = key === undefined && chart.kind !== 'radar';
  const hasRows = (key === undefined && !unsourced) || rowsOf(data).length > 0;
  const painted = (version: number) => screenMark(SCREEN_MARKS.painted, { chart: id, source: key, version });
  const domChart = !ECHARTS_KINDS.has(chart.kind);

  // HTML charts have painted once the frame after their commit is on screen.
  useEffect(() => {
    if (!domChart || state.status !== 'ready' || !hasRows) return;
    const version = state.version;
    return afterNextPaint(() => screenMark(SCREEN_MARKS.painted, { chart: id, source: key, version }));
  }, [domChart, state.status, state.version, hasRows, id, key]);

  const client = useIsClient();
  let body: ReactNode = null;
  if (ECHARTS_KINDS.has(chart.kind)) {
    const placeholder = <div className="wg-screen-chart-canvas" />;
    // ECharts draws in the browser only: server rendering leaves the chart's place empty.
    body = !client ? (
      placeholder
    ) : (
      // Its place shows as loading while the chart's code arrives (a picture of the page waits for it).
      <Suspense fallback={<div className="wg-screen-chart-canvas" data-loading="true" />}>
        <EChartsChart chart={chart} answer={answer} palette={palette} renderer={renderer} dataVersion={state.version} onPainted={painted} />
      </Suspense>
    );
  } else if (answer && hasRows) {
    if (chart.kind === 'scrollList') body = <ScrollList chart={chart} answer={answer} />;
    else if (chart.kind === 'cityTransaction') body = <CityTransaction chart={chart} rows={answer.list} />;
    else if (FIGURE_KINDS.has(chart.kind)) body = <FigureBlocks chart={chart} answer={answer} palette={palette} />;
  }

  return (
    <div
      className="wg-screen-chart"
      data-chart={id}
      data-chart-kind={chart.kind}
      data-status={state.status}
      style={{ flex: `${Math.max(0, chart.flexSize)} 1 0` }}
    >
      {body}
      {state.status === 'loading' && <div className="wg-screen-chart-note">加载中…</div>}
      {state.status === 'ready' && !hasRows && <div className="wg-screen-chart-note">{unsourced ? '未选择数据视图' : '暂无数据'}</div>}
      {state.status === 'error' && (
        <div className="wg-screen-chart-error" role="alert" title={state.error}>
          数据加载失败：{state.error}
        </div>
      )}
      {state.stale && (
        <div className="wg-screen-chart-stale" title={state.error}>
          数据未更新
        </div>
      )}
    </div>
  );
}

/** A container's charts one at a time, moving on every `speed` ms: sliding (vertical or horizontal), or fading or zooming per `animation`. */
function Carousel({ slides, direction, speed, animation }: { slides: ReactNode[]; direction: string; speed: number; animation: string }) {
  const [index, setIndex] = useState(0);
  const count = slides.length;
  useEffect(() => {
    if (count < 2) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), Math.max(500, speed));
    return () => clearInterval(timer);
  }, [count, speed]);
  const vertical = direction !== 'horizontal';
  const mode = /fade/i.test(animation) ? 'fade' : /zoom/i.test(animation) ? 'zoom' : 'slide';
  const shift = `${-index * 100}%`;
  return (
    <div className="wg-screen-carousel" data-carousel-index={index} data-carousel-mode={mode}>
      {mode === 'slide' ? (
        <div
          className={`wg-screen-carousel-track${vertical ? ' vertical' : ''}`}
          style={{ transform: index ? (vertical ? `translateY(${shift})` : `translateX(${shift})`) : undefined }}
        >
          {slides.map((slide, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a slide is its chart's position in the container
            <div className="wg-screen-slide" key={i}>
              {slide}
            </div>
          ))}
        </div>
      ) : (
        slides.map((slide, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            key={i}
            className="wg-screen-slide stacked"
            style={i === index ? { opacity: 1, zIndex: 1 } : { opacity: 0, transform: mode === 'zoom' ? 'scale(0.85)' : undefined }}
          >
            {slide}
          </div>
        ))
      )}
    </div>
  );
}

function containerStyle(item: LayoutItemModel, grid: Grid): CSSProperties {
  const st = item.container.style;
  const borderSize = numberOf(st.borderSize) ?? 0;
  const bgImg = textOf(st.bgImg);
  return {
    ...rectStyle(itemRect(item, grid)),
    padding: lengthOf(st.padding) ?? 0,
    backgroundColor: textOf(st.bgColor),
    backgroundImage: bgImg ? cssUrl(bgImg) : undefined,
    backgroundPosition: textOf(st.bgPosition) ?? 'center',
    backgroundSize: textOf(st.bgSize) ?? 'contain',
    boxShadow: textOf(st.boxShadow),
    border: borderSize > 0 ? `${borderSize}px ${textOf(st.borderStyle) ?? 'solid'} ${textOf(st.borderColor) ?? 'transparent'}` : undefined,
    borderRadius: lengthOf(st.borderRadius) ?? 4,
    zIndex: item.container.super.absolute.enabled ? 2 : undefined,
  };
}

function ContainerTitle({ header }: { header: Record<string, unknown> }) {
  const height = numberOf(header.height) ?? 50;
  return (
    <div
      className="wg-screen-item-title"
      style={{
        height,
        lineHeight: `${height}px`,
        margin: lengthOf(header.margin),
        padding: lengthOf(header.padding),
        ...backgroundOf(header.bg),
        borderBottom: textOf(header.borderBottom),
        fontSize: numberOf(header.fontSize) ?? 16,
        color: textOf(header.color) ?? '#ffffff',
        textAlign: (textOf(header.textAlign) as CSSProperties['textAlign']) ?? 'center',
      }}
    >
      {textOf(header.content) ?? ''}
    </div>
  );
}

/** One container; `fill` fills its parent instead of taking its place on the grid (the designer's grid places it). */
export function ScreenContainer({
  item,
  grid,
  theme,
  renderer,
  fill = false,
}: {
  item: LayoutItemModel;
  grid: Grid;
  theme: ThemeColor[];
  renderer: ChartRenderer;
  fill?: boolean;
}) {
  const { header, super: sup } = item.container;
  const charts = item.charts.map((chart) => (
    <ScreenChart key={`${chart.chartIndex}`} chart={chart} id={`${item.i}/${chart.chartIndex}`} theme={theme} renderer={renderer} />
  ));
  const carousel = sup.scroll.enabled && item.charts.length > 1;
  return (
    <section
      className="wg-screen-item"
      data-item={item.i}
      style={
        fill
          ? { ...containerStyle(item, grid), left: 0, top: 0, width: '100%', height: '100%', zIndex: undefined }
          : containerStyle(item, grid)
      }
    >
      {sup.curtain.enabled && <div className="wg-screen-curtain" style={{ background: cssBackground(sup.curtain.curtainColor) }} />}
      {flagOf(header.showTitle, false) && <ContainerTitle header={header} />}
      <div className="wg-screen-item-body" style={{ flexDirection: sup.flexDirection }}>
        {carousel ? (
          <Carousel slides={charts} direction={sup.scroll.direction} speed={sup.scroll.speed} animation={sup.animation} />
        ) : (
          charts
        )}
      </div>
    </section>
  );
}

function Clock() {
  return <>{useClock()}</>;
}

const DEFAULT_GLOW = '0 0 10px rgba(47, 110, 255, 0.8)';

export function ScreenHeader({ canvas, title }: { canvas: CanvasModel; title: string }) {
  const { header, mainTitle: main, subTitle: sub } = canvas;
  const titleHeight = numberOf(main.height) ?? header.height;
  const shadow = typeof main.shadow === 'string' ? main.shadow : main.shadow === true ? DEFAULT_GLOW : undefined;
  const subText = flagOf(sub.time, false) ? <Clock /> : (textOf(sub.content) ?? null);
  return (
    <header
      className="wg-screen-header"
      style={{
        width: lengthOf(header.width) || undefined,
        marginLeft: lengthOf(header.width) ? 'auto' : undefined,
        marginRight: lengthOf(header.width) ? 'auto' : undefined,
        height: header.height,
        marginTop: header.marginTop || undefined,
        backgroundImage: header.bgImg ? cssUrl(header.bgImg) : undefined,
        backgroundPosition: header.bgPosition,
        backgroundSize: header.bgSize,
      }}
    >
      <h1
        className="wg-screen-title"
        style={{
          ...backgroundOf(main.bg),
          // The title image's alignment and size, when set, over the defaults (centred, covering).
          ...(textOf(main.bgPosition) ? { backgroundPosition: textOf(main.bgPosition) } : {}),
          ...(textOf(main.bgSize) ? { backgroundSize: textOf(main.bgSize), backgroundRepeat: 'no-repeat' } : {}),
          width: lengthOf(main.width),
          height: titleHeight,
          lineHeight: `${titleHeight}px`,
          paddingTop: numberOf(main.marginTop) || undefined,
          fontSize: numberOf(main.size) ?? 32,
          color: textOf(main.color) ?? '#ffffff',
          fontWeight: flagOf(main.bold, true) ? 700 : 400,
          textShadow: shadow,
        }}
      >
        {textOf(main.content) ?? title}
      </h1>
      {subText !== null && (
        <div
          className="wg-screen-subtitle"
          data-clock={flagOf(sub.time, false) || undefined}
          style={{
            top: numberOf(sub.marginTop) ?? 0,
            fontSize: numberOf(sub.size) ?? 16,
            color: textOf(sub.color) ?? '#ffffff',
            fontWeight: flagOf(sub.bold, false) ? 700 : 400,
          }}
        >
          {subText}
        </div>
      )}
    </header>
  );
}

/**
 * Hidden while the browser tab is, or while the screen's own box has no size: a page kept in a
 * closed-over app tab (display: none) stops refreshing too.
 */
class ScreenVisibility implements VisibilityWatch {
  private shown = true;
  private readonly listeners = new Set<() => void>();

  hidden(): boolean {
    return !this.shown || documentVisibility.hidden();
  }

  watch(onChange: () => void): () => void {
    this.listeners.add(onChange);
    const off = documentVisibility.watch(onChange);
    return () => {
      this.listeners.delete(onChange);
      off();
    };
  }

  setShown(shown: boolean): void {
    if (shown === this.shown) return;
    this.shown = shown;
    for (const listener of [...this.listeners]) listener();
  }
}

interface Fit {
  scale: number;
  left: number;
  top: number;
}

export function ScreenView({ model, fit = 'parent', renderer = 'canvas' }: ScreenViewProps) {
  const { basic } = model.canvas;
  const source = useScreenDataSource();
  const [visibility] = useState(() => new ScreenVisibility());
  const scheduler = useMemo(
    () =>
      new ScreenScheduler(
        sourcesOf(
          model.layout.flatMap((item) => item.charts),
          source,
        ),
        { refreshMs: basic.autoUpdate ? basic.timer * 1000 : null, visibility },
      ),
    [model, source, basic.autoUpdate, basic.timer, visibility],
  );
  useEffect(() => {
    scheduler.start();
    return () => scheduler.stop();
  }, [scheduler]);

  const box = useRef<HTMLDivElement | null>(null);
  const [scaleStore] = useState(() => new ScaleStore());
  const [placed, setPlaced] = useState<Fit | null>(null);
  // Measured before the first paint (and before any chart creates its instance, which reads the scale).
  const { width, height } = basic;
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      if (!el.clientWidth || !el.clientHeight) return;
      const next = fitCanvas({ width: el.clientWidth, height: el.clientHeight }, { width, height });
      scaleStore.set(next.scale);
      setPlaced((prev) => (prev && prev.scale === next.scale && prev.left === next.left && prev.top === next.top ? prev : next));
    };
    measure();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      visibility.setShown(el.clientWidth > 0 && el.clientHeight > 0);
      clearTimeout(timer);
      timer = setTimeout(measure, CANVAS_RESIZE_DEBOUNCE_MS);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [width, height, scaleStore, visibility]);

  const grid = gridOf(model.canvas);
  const top = headerHeightOf(model.canvas);
  const outer: CSSProperties = fit === 'parent' ? { aspectRatio: `${basic.width} / ${basic.height}` } : {};
  return (
    <div ref={box} className={`wg-screen wg-screen-${fit}`} data-screen={model.screenId} data-page-kind={model.kind} style={outer}>
      <div
        className="wg-screen-canvas"
        style={{
          width: basic.width,
          height: basic.height,
          transform: placed ? `translate(${placed.left}px, ${placed.top}px) scale(${placed.scale})` : undefined,
          visibility: placed ? undefined : 'hidden',
          backgroundColor: basic.bgColor || undefined,
          backgroundImage: basic.bgImg ? cssUrl(basic.bgImg) : undefined,
        }}
      >
        <ScreenHeader canvas={model.canvas} title={model.title} />
        <ScaleContext.Provider value={scaleStore}>
          <SchedulerContext.Provider value={scheduler}>
            <div className="wg-screen-layout" style={{ top, height: Math.max(0, basic.height - top) }}>
              {model.layout.map((item) => (
                <ScreenContainer key={item.i} item={item} grid={grid} theme={model.canvas.themeColor} renderer={renderer} />
              ))}
            </div>
          </SchedulerContext.Provider>
        </ScaleContext.Provider>
      </div>
    </div>
  );
}
