import { sortKeysDeep } from '../canonical.js';
import { isAbsent, isRecord } from '../coerce.js';
import { sortByKeys } from '../order.js';
import { screenPath } from '../routes.js';
import type {
  BigScreenModel,
  CanvasModel,
  ChartModel,
  ContainerPageModel,
  FormPageModel,
  LayoutItemModel,
  PageModel,
  SourceInfo,
} from '../types.js';
import { backgroundProblem, imageUrlProblem } from '../urls.js';
import type { WireLayoutItem, WireScreen } from '../wire.js';
import { compact } from './keys.js';
import type { Sink } from './sink.js';

/** What a screen's canvas takes where its definition says nothing: the viewer, the designer and a new screen alike. */
export const CANVAS_DEFAULTS = {
  basic: { width: 1920, height: 1080, defaultCol: 24, defaultW: 6, defaultH: 18, margin: 20, autoUpdate: false, timer: 60 },
  header: { height: 80, marginTop: 0, bgPosition: 'center', bgSize: '100% 100%' },
} as const;

const CONTAINER_DEFAULTS = {
  style: { padding: 0, bgPosition: 'center', bgSize: 'contain', borderRadius: 4, boxShadow: 'inset 0 0 10px rgba(0, 0, 0, 0.3)' },
  header: { showTitle: false, content: '', height: 50, fontSize: 16, color: '#ffffff', textAlign: 'center' },
};

type WireSuper = NonNullable<NonNullable<WireLayoutItem['container']>['super']>;

/** Container behaviour, whether the designer wrote flags with settings beside them or objects with `enabled`. */
function superOf(s: WireSuper | undefined): LayoutItemModel['container']['super'] {
  const sup = s ?? {};
  const part = <T extends object>(v: boolean | ({ enabled?: boolean | undefined } & T) | undefined) =>
    typeof v === 'object' ? v : ({ enabled: v ?? false } as { enabled?: boolean } & Partial<T>);
  const absolute = part<{ top?: number; left?: number }>(sup.absolute);
  const scroll = part<{ direction?: 'vertical' | 'horizontal'; speed?: number }>(sup.scroll);
  const curtain = part<{ curtainColor?: string }>(sup.curtain);
  return {
    flexDirection: sup.flexDirection ?? 'row',
    absolute: { enabled: absolute.enabled ?? false, top: absolute.top ?? sup.top ?? 0, left: absolute.left ?? sup.left ?? 0 },
    scroll: {
      enabled: scroll.enabled ?? false,
      direction: scroll.direction ?? sup.direction ?? 'vertical',
      speed: scroll.speed ?? sup.speed ?? 3000,
    },
    curtain: { enabled: curtain.enabled ?? false, curtainColor: curtain.curtainColor ?? sup.curtainColor ?? 'rgba(0, 0, 0, 0.4)' },
    animation: typeof sup.animation === 'string' ? sup.animation : '',
  };
}

/** Chart options a chart kind takes when the definition leaves them out. */
const CHART_DEFAULTS: Partial<Record<ChartModel['kind'], Record<string, unknown>>> = {
  pie: { radiusInside: 0, radiusOutSide: 70, fontSize: 12, roseType: '' },
  scrollList: { interval: 3000 },
};

/** Documented defaults under what the definition gives; keys sorted, so key order in the file never matters. */
const withDefaults = (defaults: Record<string, unknown>, given: Record<string, unknown> | undefined) =>
  sortKeysDeep(compact({ ...defaults, ...Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => !isAbsent(v))) })) as Record<
    string,
    unknown
  >;

function canvasOf(t: NonNullable<WireScreen['disTemplate']>): CanvasModel {
  const c = t.canvasConfigure ?? {};
  return {
    basic: withDefaults(CANVAS_DEFAULTS.basic, c.basic) as CanvasModel['basic'],
    header: withDefaults(CANVAS_DEFAULTS.header, c.header) as CanvasModel['header'],
    mainTitle: withDefaults({}, c.mainTitle),
    subTitle: withDefaults({}, c.subTitle),
    themeColor: (c.themeColor ?? []).map((x) => ({ start: x.start ?? '', end: x.end ?? x.start ?? '' })),
  };
}

function layoutOf(layout: WireLayoutItem[], canvas: CanvasModel, sink: Sink): LayoutItemModel[] {
  const seen = new Set<string>();
  const items = layout.map((item, i): LayoutItemModel => {
    const pointer = `/disTemplate/layout/${i}`;
    const id = item.i?.trim() || String(i);
    if (seen.has(id)) sink.add('E_DUPLICATE', `${pointer}/i`, `layout item ${JSON.stringify(id)} is already defined`);
    seen.add(id);
    const charts = sortByKeys(item.chart, (ch) => ch.chartIndex).map((ch, j): ChartModel => {
      const cp = `${pointer}/chart/${item.chart.indexOf(ch)}`;
      if (!ch.fileName) sink.add('E_REQUIRED', `${cp}/fileName`, 'a chart needs a fileName');
      const kind = ch.fileName ?? 'lineBar';
      const options = withDefaults(CHART_DEFAULTS[kind] ?? {}, ch.configure?.private);
      if (kind === 'pie' && Number(options.radiusInside) > Number(options.radiusOutSide))
        sink.add(
          'E_RANGE',
          `${cp}/configure/private/radiusInside`,
          `pie inner radius ${options.radiusInside} exceeds the outer radius ${options.radiusOutSide}`,
        );
      const dataViewId = ch.configure?.private?.dataViewId;
      return compact({
        kind,
        chartIndex: ch.chartIndex ?? j,
        flexSize: ch.flexSize ?? 1,
        dataViewId,
        common: withDefaults({}, ch.configure?.common),
        options,
      });
    });
    const sup = superOf(item.container?.super);
    const speed = sup.scroll.speed;
    if (!Number.isInteger(speed) || speed < 1) {
      const scroll = item.container?.super?.scroll;
      const at = typeof scroll === 'object' && scroll.speed !== undefined ? 'scroll/speed' : 'speed';
      sink.add('E_RANGE', `${pointer}/container/super/${at}`, `scroll speed must be a whole number of at least 1, got ${speed}`);
    }
    return {
      i: id,
      x: item.x ?? 0,
      y: item.y ?? 0,
      w: item.w ?? canvas.basic.defaultW,
      h: item.h ?? canvas.basic.defaultH,
      container: {
        style: withDefaults(CONTAINER_DEFAULTS.style, item.container?.style),
        header: withDefaults(CONTAINER_DEFAULTS.header, item.container?.header),
        super: sup,
      },
      charts,
    };
  });
  return sortByKeys(
    items,
    (x) => x.y,
    (x) => x.x,
  );
}

/**
 * Every address a big screen draws from, where its definition holds it: background images (`bgImg`)
 * and an `image://` line symbol by imageUrlProblem, settings drawn as a CSS background (a title's or a
 * container title's `bg`, a curtain's colour) by backgroundProblem. The engine draws none of them
 * that fails, whatever page model it is given; this says where, before the screen is saved or generated.
 */
function checkDrawnAddresses(t: NonNullable<WireScreen['disTemplate']>, sink: Sink): void {
  const judge = (problemOf: (text: string) => string | undefined) => (v: unknown, pointer: string) => {
    const problem = typeof v === 'string' && v.trim() !== '' ? problemOf(v) : undefined;
    if (problem) sink.add('E_URL', pointer, problem);
  };
  const image = judge(imageUrlProblem);
  const background = judge(backgroundProblem);
  const c = t.canvasConfigure ?? {};
  image(c.basic?.bgImg, '/disTemplate/canvasConfigure/basic/bgImg');
  image(c.header?.bgImg, '/disTemplate/canvasConfigure/header/bgImg');
  background(c.mainTitle?.bg, '/disTemplate/canvasConfigure/mainTitle/bg');
  for (const [i, item] of (t.layout ?? []).entries()) {
    const at = `/disTemplate/layout/${i}`;
    image(item.container?.style?.bgImg, `${at}/container/style/bgImg`);
    background(item.container?.header?.bg, `${at}/container/header/bg`);
    const sup = item.container?.super;
    background(sup?.curtainColor, `${at}/container/super/curtainColor`);
    if (isRecord(sup?.curtain)) background(sup.curtain.curtainColor, `${at}/container/super/curtain/curtainColor`);
    for (const [j, chart] of item.chart.entries()) {
      const line = chart.configure?.private?.line;
      const symbol = isRecord(line) ? line.symbol : undefined;
      // ECharts draws `image://{address}` as a picture from that address.
      const address = typeof symbol === 'string' ? /^\s*image:\/\/(.*)$/is.exec(symbol)?.[1] : undefined;
      image(address, `${at}/chart/${j}/configure/private/line/symbol`);
    }
  }
}

function viewIdsOf(v: number | (number | undefined)[] | undefined): number[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is number => x !== undefined);
}

export function normalizeScreenTemplate(
  screen: WireScreen,
  template: NonNullable<WireScreen['disTemplate']>,
  source: SourceInfo,
  sink: Sink,
): PageModel | undefined {
  const id = screen.id as number;
  const title = screen.name?.trim() || screen.disMenu?.name?.trim() || `大屏 ${id}`;
  const path = screenPath(id);
  switch (screen.type) {
    case 1:
    case 4: {
      const views = viewIdsOf(template.baseView);
      if (views.length === 0) {
        sink.add(
          'E_REQUIRED',
          '/disTemplate/baseView',
          `a type-${screen.type} screen needs baseView: the id of the list view${screen.type === 4 ? 's shown as tabs' : ' it shows'}`,
        );
        return undefined;
      }
      if (screen.type === 1 && views.length > 1)
        sink.add('E_RANGE', '/disTemplate/baseView', 'a type-1 screen shows one view; use type 4 for tabs');
      const model: ContainerPageModel = {
        kind: 'container',
        screenId: id,
        screenType: screen.type,
        title,
        path,
        source,
        views: [...new Set(views)],
      };
      return model;
    }
    case 3: {
      if (template.formView === undefined) {
        sink.add('E_REQUIRED', '/disTemplate/formView', 'a type-3 screen needs formView: the id of the view whose form it shows');
        return undefined;
      }
      const model: FormPageModel = { kind: 'form', screenId: id, title, path, source, formView: template.formView };
      return model;
    }
    case 2: {
      const canvas = canvasOf(template);
      checkDrawnAddresses(template, sink);
      for (const key of ['width', 'height', 'defaultCol', 'defaultW', 'defaultH'] as const) {
        const v = canvas.basic[key];
        if (!Number.isInteger(v) || v < 1)
          sink.add('E_RANGE', `/disTemplate/canvasConfigure/basic/${key}`, `${key} must be a whole number of at least 1, got ${v}`);
      }
      const model: BigScreenModel = {
        kind: 'bigScreen',
        screenId: id,
        title,
        path,
        source,
        canvas,
        layout: layoutOf(template.layout ?? [], canvas, sink),
      };
      return model;
    }
    default:
      sink.add(
        'E_SCREEN_TYPE',
        '/type',
        `screen type must be 1 (list preview), 2 (big screen), 3 (form preview) or 4 (tabs), got ${JSON.stringify(screen.type ?? null)}`,
      );
      return undefined;
  }
}
