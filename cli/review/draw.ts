import { existsSync, readFileSync } from 'node:fs';
import { basename, extname, join, normalize, sep } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { isRecord, normalizeDefinition } from '../../src/model/index.js';
import { REVIEW_CLOCK, type ReviewApi, type ReviewRenderInput, type ReviewWarning } from '../../src/shared/review-page.js';
import { CliError, EXIT } from '../errors.js';
import type { DefinitionSet } from './changes.js';

/**
 * Draws the pages of definitions in Chromium (playwright-core with the system browser) from the
 * built app's review page (review.html), which renders them with sample data and no server. The app
 * is served from disk through request interception; every other request is refused.
 */

export const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

/** A page state a reviewer needs, in the order they are drawn. */
export type PageState = 'list' | 'add' | 'edit' | 'edit-other' | 'look' | 'form' | 'screen';

export const STATE_LABELS: Record<PageState, string> = {
  list: '列表',
  add: '新增对话框（空）',
  edit: '编辑对话框（已填）',
  'edit-other': '编辑对话框（联动另一侧）',
  look: '查看对话框',
  form: '整页表单',
  screen: '页面',
};

export interface Shot {
  state: PageState;
  viewport: Viewport;
  png: Buffer;
  warnings: ReviewWarning[];
  /** Script errors while drawing (the page shows its error panel). */
  errors: string[];
}

export interface DrawJob {
  kind: 'view' | 'screen';
  id: number;
  /** The definitions of the side drawn (base or working tree). */
  set: DefinitionSet;
}

const ORIGIN = 'http://wastegen-review.localhost';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
/**
 * Debian's Chromium on a machine of this kind: no sandbox as root, no GPU, no background traffic
 * (there is no internet). The browser tests and benchmarks launch it with the same flags.
 */
export const CHROMIUM_BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
/**
 * The base flags plus what makes the review's pictures the same run after run: one raster thread,
 * whole-tile raster, no runtime-tuned drawing code, sRGB colours, no LCD text.
 */
const CHROMIUM_ARGS = [
  ...CHROMIUM_BASE_ARGS,
  '--font-render-hinting=none',
  '--disable-lcd-text',
  '--force-color-profile=srgb',
  '--disable-partial-raster',
  '--disable-skia-runtime-opts',
  '--num-raster-threads=1',
  '--disable-checker-imaging',
  '--run-all-compositor-stages-before-draw',
  '--in-process-gpu',
  '--disable-features=Translate,OptimizationHints,MediaRouter,PaintHolding,AutofillServerCommunication',
];

/**
 * Frame control: the headless shell can make a page's frames only when asked (begin-frame control),
 * as fast as it draws them and without putting them on its display until a picture is taken. Debian's
 * full chromium cannot, and draws at its display's rate instead; both give the same bytes.
 */
const DRIVEN_ARGS = ['--deterministic-mode'];
const drivable = (executablePath: string) => basename(executablePath).includes('headless-shell');

/** How a page gets its frames, is resized and photographed. */
interface Frames {
  /** Settles with `work`, making frames meanwhile (the page's requestAnimationFrame waits on them). */
  during<T>(work: Promise<T>): Promise<T>;
  resize(viewport: Viewport): Promise<void>;
  picture(): Promise<Buffer>;
}

/** Frames at the display's rate; pictures taken from the display. */
class DisplayFrames implements Frames {
  constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
  ) {}
  during<T>(work: Promise<T>): Promise<T> {
    return work;
  }
  resize(viewport: Viewport): Promise<void> {
    return this.page.setViewportSize(viewport);
  }
  async picture(): Promise<Buffer> {
    const shot = (await this.cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true } as never)) as { data: string };
    return Buffer.from(shot.data, 'base64');
  }
}

/**
 * Frames made one after another while the page has work (no display updates: nothing is composited
 * that is not photographed), and a picture drawn by a frame of its own.
 */
class DrivenFrames implements Frames {
  constructor(private readonly cdp: CDPSession) {}
  async during<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const over = () => {
      done = true;
    };
    work.then(over, over);
    while (!done) await this.cdp.send('HeadlessExperimental.beginFrame', { noDisplayUpdates: true } as never);
    return work;
  }
  async resize(viewport: Viewport): Promise<void> {
    await this.cdp.send('Emulation.setDeviceMetricsOverride', {
      ...viewport,
      deviceScaleFactor: 1,
      mobile: false,
      screenWidth: viewport.width,
      screenHeight: viewport.height,
    } as never);
  }
  async picture(): Promise<Buffer> {
    const frame = (await this.cdp.send('HeadlessExperimental.beginFrame', {
      screenshot: { format: 'png', optimizeForSpeed: true },
    } as never)) as { screenshotData?: string };
    if (!frame.screenshotData) throw new Error('the browser drew a frame but took no picture of it');
    return Buffer.from(frame.screenshotData, 'base64');
  }
}

/** The built review page, or why it cannot be drawn. */
export function reviewApp(appDir: string): string {
  const html = join(appDir, 'review.html');
  if (!existsSync(html))
    throw new CliError(
      `${html} is missing: the review draws pages from the built app`,
      EXIT.usage,
      'build the app first (npm run build, or vite build)',
    );
  return appDir;
}

/** The views a screen shows (a container's lists, a full-page form's view), so they are drawn with it. */
function viewsOfScreen(json: Record<string, unknown> | undefined, id: number): number[] {
  if (!json) return [];
  const r = normalizeDefinition({ kind: 'screen', file: `screen ${id}`, json });
  const page = r.page;
  if (page?.kind === 'container') return page.views;
  if (page?.kind === 'form') return [page.formView];
  return [];
}

function inputOf(job: DrawJob, page: ReviewRenderInput['page']): ReviewRenderInput {
  const views: Record<string, unknown> = {};
  const screens: Record<string, unknown> = {};
  if (job.kind === 'view') views[job.id] = job.set.views.get(job.id);
  else {
    const json = job.set.screens.get(job.id);
    screens[job.id] = json;
    for (const v of viewsOfScreen(json, job.id)) if (job.set.views.has(v)) views[v] = job.set.views.get(v);
  }
  return { kind: job.kind, id: job.id, page, views, screens };
}

/** Whether a view has relation rules, so its form is drawn on both sides of them. */
function hasRelations(json: Record<string, unknown> | undefined, id: number): boolean {
  const page = json ? normalizeDefinition({ kind: 'view', file: `view ${id}`, json }).page : undefined;
  return page?.kind === 'list' && page.form.fields.some((f) => f.showRelation || f.requiredRelation);
}

export class Drawer {
  private readonly contexts: BrowserContext[] = [];

  private constructor(
    private readonly browser: Browser,
    private readonly root: string,
    private readonly driven: boolean,
  ) {}

  static async open(appDir: string, executablePath: string): Promise<Drawer> {
    if (!existsSync(executablePath))
      throw new CliError(
        `Chromium not found at ${executablePath}`,
        EXIT.usage,
        'apt-get install -y chromium fonts-noto-cjk, or set CHROMIUM_PATH',
      );
    const { chromium } = await import('playwright-core');
    const driven = drivable(executablePath);
    const browser = await chromium.launch({ executablePath, args: driven ? [...CHROMIUM_ARGS, ...DRIVEN_ARGS] : CHROMIUM_ARGS });
    return new Drawer(browser, normalize(appDir), driven);
  }

  /**
   * A context of its own for each page (a window of its own: pages sharing one have their frames
   * throttled when in the background), with the fixed clock and the app served from disk.
   */
  private async context(): Promise<BrowserContext> {
    const context = await this.browser.newContext({
      viewport: VIEWPORTS[0],
      deviceScaleFactor: 1,
      locale: 'zh-CN',
      timezoneId: 'Asia/Shanghai',
      reducedMotion: 'reduce',
      colorScheme: 'light',
    });
    this.contexts.push(context);
    // A fixed clock: every "now" (Date.now, new Date()) is REVIEW_CLOCK, so dates on the pages never move.
    await context.addInitScript((now: number) => {
      const Real = Date;
      class Fixed extends Real {
        constructor(...args: unknown[]) {
          if (args.length) super(...(args as [number]));
          else super(now);
        }
        static override now() {
          return now;
        }
      }
      (globalThis as unknown as { Date: DateConstructor }).Date = Fixed as DateConstructor;
    }, REVIEW_CLOCK);
    const root = this.root;
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== ORIGIN) return route.abort('blockedbyclient');
      const file = normalize(join(root, decodeURIComponent(url.pathname)));
      if (!file.startsWith(root + sep) || !existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
      return route.fulfill({
        status: 200,
        body: readFileSync(file),
        headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
      });
    });
    return context;
  }

  async close(): Promise<void> {
    for (const c of this.contexts) await c.close().catch(() => {});
    await this.browser.close().catch(() => {});
  }

  /**
   * A page of the context whose frames are made on request: created through the browser's own
   * protocol (Playwright opens pages without that option), then taken over by Playwright as the
   * context's page, with the context's clock and file server.
   */
  private async drivenPage(context: BrowserContext): Promise<Page> {
    const boot = await context.newPage();
    try {
      const info = (await (await context.newCDPSession(boot)).send('Target.getTargetInfo')) as { targetInfo: { browserContextId: string } };
      const browser = await this.browser.newBrowserCDPSession();
      const next = context.waitForEvent('page');
      await browser.send('Target.createTarget', {
        url: 'about:blank',
        browserContextId: info.targetInfo.browserContextId,
        enableBeginFrameControl: true,
      } as never);
      // The session stays open: the target it created goes with it.
      return await next;
    } finally {
      await boot.close();
    }
  }

  /**
   * A page with the review app loaded and its clock fixed. One per browser when its frames are made on
   * request: the headless shell closes frame-controlled pages that make frames side by side.
   */
  async page(): Promise<ReviewPage> {
    const context = await this.context();
    const page = this.driven ? await this.drivenPage(context) : await context.newPage();
    const cdp = await context.newCDPSession(page);
    const frames = this.driven ? new DrivenFrames(cdp) : new DisplayFrames(page, cdp);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await frames.resize(VIEWPORTS[0]);
    await frames.during(page.goto(`${ORIGIN}/review.html`));
    await frames.during(page.waitForFunction(() => (window as unknown as { wastegenReview?: unknown }).wastegenReview !== undefined));
    return new ReviewPage(page, errors, frames);
  }
}

/** The review page's handle, set by review.html (spelt out in each evaluate: the function runs in the page). */
type ReviewWindow = { wastegenReview: ReviewApi };

export class ReviewPage {
  private size: Viewport = VIEWPORTS[0];

  constructor(
    readonly page: Page,
    private readonly errors: string[],
    private readonly frames: Frames,
  ) {}

  private async settle() {
    await this.frames.during(this.page.evaluate(() => (window as unknown as ReviewWindow).wastegenReview.settle()));
  }

  private async shoot(state: PageState, viewport: Viewport, out: Shot[]) {
    if (this.size.width !== viewport.width || this.size.height !== viewport.height) {
      await this.frames.resize(viewport);
      this.size = viewport;
      await this.settle();
    }
    const png = await this.frames.picture();
    const warnings = await this.frames.during(
      this.page.evaluate((ctx) => (window as unknown as ReviewWindow).wastegenReview.check(ctx), viewport),
    );
    const notes = await this.frames.during(this.page.evaluate(() => (window as unknown as ReviewWindow).wastegenReview.notes()));
    out.push({ state, viewport, png, warnings, errors: [...this.errors.splice(0), ...notes] });
  }

  private async shootAll(state: PageState, out: Shot[], order: readonly Viewport[]) {
    for (const v of order) await this.shoot(state, v, out);
  }

  /** Opens a dialog by a click in the page, draws it at both sizes, and closes it again; nothing when there is no such button. */
  private async dialog(state: 'add' | 'edit' | 'edit-other' | 'look', out: Shot[], order: readonly Viewport[]) {
    const opened = await this.frames.during(this.page.evaluate((a) => (window as unknown as ReviewWindow).wastegenReview.open(a), state));
    if (!opened) return;
    await this.shootAll(state, out, order);
    await this.frames.during(this.page.evaluate(() => (window as unknown as ReviewWindow).wastegenReview.close()));
  }

  private async render(input: ReviewRenderInput) {
    await this.frames.during(this.page.evaluate((i) => (window as unknown as ReviewWindow).wastegenReview.render(i), input));
  }

  /** Every state of the job's page, each at both sizes. */
  async draw(job: DrawJob): Promise<Shot[]> {
    const out: Shot[] = [];
    // Resizing costs a layout; each state is drawn at the size the previous one ended at first.
    let order: readonly Viewport[] = VIEWPORTS;
    const flip = () => {
      order = [...order].reverse();
      return order;
    };
    if (job.kind === 'screen') {
      await this.render(inputOf(job, 'screen'));
      await this.shootAll('screen', out, order);
      return out;
    }
    await this.render(inputOf(job, 'list'));
    await this.shootAll('list', out, order);
    await this.dialog('add', out, flip());
    await this.dialog('edit', out, flip());
    if (hasRelations(job.set.views.get(job.id), job.id)) await this.dialog('edit-other', out, flip());
    await this.dialog('look', out, flip());
    const json = job.set.views.get(job.id);
    if (isRecord(json)) {
      await this.render(inputOf(job, 'form'));
      await this.shootAll('form', out, flip());
    }
    return out;
  }
}
