// Budgets: the login route's initial JS ≤ 250 KB gzipped; echarts, the xlsx library, the
// rich-text editor and zod in no initial chunk. Builds the app with Vite's API into a temp folder and
// reads the chunk graph: the initial JS is the entry chunk plus every chunk it imports statically
// (what index.html loads and preloads before the login page can render); lazy chunks are not in it.
// Budget: the big-screen viewer route's JS ≤ 350 KB gzipped. /lsPreview is its own page (ls-preview.html):
// its entry chunk and every chunk it imports statically, plus the ECharts chunk every screen with a
// line, bar, pie or radar chart loads (src/engine/screen/charts/echarts-chart.tsx).
// The viewer loads none of the back office: no antd and none of the contract's shapes (its calls go
// by their bare twins, src/contract/bare.gen.ts).
// BENCH_MODULES=1 also lists, for the login route and the viewer, each chunk's biggest modules (their
// rendered size before minifying): what to look at when a chunk lands where it should not.
// Budget: one generated page's own JS ≤ 15 KB gzipped: the chunk holding a
// generated/views/*/page.tsx or generated/screens/*/page.tsx (with whatever landed in it: its schema,
// its model), plus any chunk only it imports; the engine it shares with every page is not its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';

const BUDGET_KB = 250;
const PAGE_BUDGET_KB = 15;
const VIEWER_BUDGET_KB = 350;
const APP_ENTRY = /\/(index\.html|src\/main\.tsx)$/;
const VIEWER_ENTRY = /\/(ls-preview\.html|src\/pages\/ls-preview-main\.tsx)$/;
const VIEWER_LAZY = /\/src\/engine\/screen\/charts\/echarts-chart\.tsx$/;
/** What the viewer's route must not load. */
const NOT_IN_VIEWER = [
  { name: 'antd', test: /node_modules\/(antd|@ant-design|@rc-component)\// },
  { name: 'contract shapes', test: /\/src\/contract\/(?!define\.ts$|bare\.gen\.ts$)[^/]+\.ts$/ },
];
const GENERATED_PAGE = /\/generated\/(views|screens)\/([^/]+)\/page\.tsx$/;
/** Packages that must only ever load on demand. */
const HEAVY = [
  { name: 'echarts', test: /node_modules\/(echarts|zrender)\// },
  { name: 'xlsx library', test: /node_modules\/(xlsx|exceljs|sheetjs)\// },
  /** The contract's shapes: the login route calls through the bare calls, which carry none. */
  { name: 'zod', test: /node_modules\/zod\// },
  {
    name: 'rich-text editor',
    test: /node_modules\/(@wangeditor|wangeditor|quill|react-quill|@tiptap|tinymce|@tinymce|ckeditor|@ckeditor|lexical|@lexical|slate|draft-js)\//,
  },
];

interface ChunkInfo {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  moduleIds: string[];
  /** Each module's rendered length in the chunk (printed with BENCH_MODULES=1). */
  modules: [string, number][];
  gzip: number;
  raw: number;
}

const chunks = new Map<string, ChunkInfo>();
const capture: Plugin = {
  name: 'wastegen-bundle-bench',
  generateBundle(_options, bundle) {
    for (const out of Object.values(bundle)) {
      if (out.type !== 'chunk') continue;
      chunks.set(out.fileName, {
        fileName: out.fileName,
        isEntry: out.isEntry,
        facadeModuleId: out.facadeModuleId ? out.facadeModuleId.replace(/\\/g, '/') : null,
        imports: out.imports,
        dynamicImports: out.dynamicImports,
        moduleIds: out.moduleIds,
        modules: Object.entries(out.modules).map(([id, m]) => [id.replace(/\\/g, '/'), m.renderedLength] as [string, number]),
        raw: Buffer.byteLength(out.code),
        gzip: gzipSync(out.code, { level: 9 }).length,
      });
    }
  },
};

const outDir = mkdtempSync(join(tmpdir(), 'wastegen-bundle-'));
try {
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true }, plugins: [capture] });
  // The app's entry (index.html); the viewer's page has an entry of its own, measured below.
  const entries = [...chunks.values()].filter((c) => c.isEntry && APP_ENTRY.test(c.facadeModuleId ?? ''));
  if (entries.length !== 1) {
    const all = [...chunks.values()].filter((c) => c.isEntry).map((c) => c.facadeModuleId);
    throw new Error(`expected one entry chunk for index.html, found ${entries.length} (${all.join(', ')})`);
  }
  const initial = new Set<string>();
  const visit = (name: string) => {
    if (initial.has(name)) return;
    initial.add(name);
    for (const i of chunks.get(name)?.imports ?? []) visit(i);
  };
  for (const e of entries) visit(e.fileName);
  const list = [...initial].map((n) => chunks.get(n) as ChunkInfo).sort((a, b) => b.gzip - a.gzip);
  const total = list.reduce((s, c) => s + c.gzip, 0);
  const totalRaw = list.reduce((s, c) => s + c.raw, 0);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  /** With BENCH_MODULES=1: each chunk's biggest modules. */
  const listModules = (of: ChunkInfo[]) => {
    if (process.env.BENCH_MODULES !== '1') return;
    for (const c of of) {
      console.log(`    ${c.fileName} ${kb(c.gzip)} gz; imports ${c.imports.join(', ') || 'nothing'}`);
      for (const [id, len] of [...c.modules].sort((a, b) => b[1] - a[1]).slice(0, 30))
        if (len > 0)
          console.log(`      ${kb(len).padStart(10)} ${id.replace(/^.*\/node_modules\//, '~/').replace(`${process.cwd()}/`, '')}`);
    }
  };
  console.log(`login route initial JS: ${list.length} chunks, ${kb(total)} gzipped (${kb(totalRaw)} raw); all chunks: ${chunks.size}`);
  for (const c of list) console.log(`  ${c.fileName.padEnd(48)} ${kb(c.gzip).padStart(10)} gz ${kb(c.raw).padStart(11)} raw`);
  listModules(list);
  let failed = total > BUDGET_KB * 1024;
  console.log(`budget: initial JS ≤ ${BUDGET_KB} KB gzipped: ${kb(total)} ${failed ? 'FAIL' : 'PASS'}`);
  for (const heavy of HEAVY) {
    const inInitial = list.filter((c) => c.moduleIds.some((id) => heavy.test.test(id.replace(/\\/g, '/'))));
    const anywhere = [...chunks.values()].filter((c) => c.moduleIds.some((id) => heavy.test.test(id.replace(/\\/g, '/'))));
    const where = anywhere.length ? `in lazy chunk(s) ${anywhere.map((c) => c.fileName).join(', ')}` : 'not in the app yet';
    console.log(
      `budget: ${heavy.name} in no initial chunk: ${inInitial.length ? `FAIL (${inInitial.map((c) => c.fileName).join(', ')})` : `PASS (${where})`}`,
    );
    if (inInitial.length) failed = true;
  }

  // The viewer route: its page's entry and static imports, and the ECharts chunk.
  const viewer = new Set<string>();
  const reach = (name: string) => {
    if (viewer.has(name)) return;
    viewer.add(name);
    for (const i of chunks.get(name)?.imports ?? []) reach(i);
  };
  const viewerEntry = [...chunks.values()].find((c) => c.isEntry && VIEWER_ENTRY.test(c.facadeModuleId ?? ''));
  const echartsChunk = [...chunks.values()].find((c) => c.moduleIds.some((id) => VIEWER_LAZY.test(id.replace(/\\/g, '/'))));
  for (const c of [viewerEntry, echartsChunk]) if (c) reach(c.fileName);
  const viewerList = [...viewer].map((n) => chunks.get(n) as ChunkInfo).sort((a, b) => b.gzip - a.gzip);
  const viewerTotal = viewerList.reduce((s, c) => s + c.gzip, 0);
  const viewerOver = !viewerEntry || !echartsChunk || viewerTotal > VIEWER_BUDGET_KB * 1024;
  console.log(
    `budget: big-screen viewer route JS ≤ ${VIEWER_BUDGET_KB} KB gzipped: ${kb(viewerTotal)} (${viewerList.map((c) => `${c.fileName} ${kb(c.gzip)}`).join(', ')}) ${viewerOver ? 'FAIL' : 'PASS'}`,
  );
  if (viewerOver) failed = true;
  listModules(viewerList);
  for (const banned of NOT_IN_VIEWER) {
    // Modules with code in the chunk: one tree-shaken to nothing is not loaded.
    const found = viewerList.flatMap((c) => c.modules.filter(([id, len]) => len > 0 && banned.test.test(id)).map(([id]) => ({ c, id })));
    const named = found.map(({ c, id }) => `${c.fileName}: ${id.replace(/^.*\/node_modules\//, '').replace(`${process.cwd()}/`, '')}`);
    console.log(
      `budget: ${banned.name} in no chunk of the viewer route: ${named.length ? `FAIL (${named.slice(0, 5).join(', ')}${named.length > 5 ? `, … ${named.length} modules` : ''})` : 'PASS'}`,
    );
    if (named.length) failed = true;
  }

  // Generated pages: each page's chunk, and the chunks nothing else imports but it.
  const importers = new Map<string, Set<string>>();
  for (const c of chunks.values())
    for (const i of [...c.imports, ...c.dynamicImports]) importers.set(i, (importers.get(i) ?? new Set()).add(c.fileName));
  const pages = [...chunks.values()]
    .map((c) => ({ chunk: c, pages: c.moduleIds.map((id) => GENERATED_PAGE.exec(id.replace(/\\/g, '/'))).filter((m) => m !== null) }))
    .filter((p) => p.pages.length > 0)
    .map(({ chunk, pages: found }) => {
      const own = chunk.imports.map((i) => chunks.get(i) as ChunkInfo).filter((i) => importers.get(i.fileName)?.size === 1);
      return {
        name: found.map((m) => `${m[1]}/${m[2]}`).join(' + '),
        chunk,
        own,
        gzip: chunk.gzip + own.reduce((s, c) => s + c.gzip, 0),
        raw: chunk.raw + own.reduce((s, c) => s + c.raw, 0),
      };
    })
    .sort((a, b) => b.gzip - a.gzip);
  if (pages.length) {
    console.log(`generated pages: ${pages.length} page chunks`);
    for (const p of pages)
      console.log(
        `  ${p.name.padEnd(34)} ${p.chunk.fileName.padEnd(28)} ${kb(p.gzip).padStart(9)} gz ${kb(p.raw).padStart(9)} raw${p.own.length ? ` (with ${p.own.map((c) => c.fileName).join(', ')})` : ''}`,
      );
    const max = pages[0] as (typeof pages)[number];
    const over = max.gzip > PAGE_BUDGET_KB * 1024;
    console.log(
      `budget: one generated page's own JS ≤ ${PAGE_BUDGET_KB} KB gzipped: max ${kb(max.gzip)} (${max.name}) ${over ? 'FAIL' : 'PASS'}`,
    );
    if (over) failed = true;
  } else {
    console.log("budget: one generated page's own JS ≤ 15 KB gzipped: FAIL (no chunk holds a generated page)");
    failed = true;
  }
  if (failed) process.exitCode = 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
