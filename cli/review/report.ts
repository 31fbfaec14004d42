import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReviewWarning as PageWarning } from '../../src/shared/review-page.js';
import type { ReviewItem } from './changes.js';
import { type PageState, type Shot, STATE_LABELS, VIEWPORTS, type Viewport } from './draw.js';
import { htmlText, markdownCode, markdownText } from './escape.js';

/**
 * The review's report: index.html (a card per definition: before and after side by side, their
 * difference as an overlay, the changes and the warnings), summary.md for a pull-request comment, and the PNGs.
 * Nothing in it depends on the clock or the machine's paths, so the same inputs give the same bytes.
 */

export interface Picture {
  state: PageState;
  label: string;
  viewport: string;
  before?: string;
  after?: string;
  /** Whether before and after are the same picture, byte for byte (absent when one side has none). */
  same?: boolean;
}

export interface ReportWarning extends PageWarning {
  /** The picture it was seen on (its file, relative to the report). */
  picture: string;
  /** Not on the same picture before the change. */
  new: boolean;
}

export interface ReportDefinition {
  kind: 'view' | 'screen';
  id: number;
  name: string;
  status: ReviewItem['status'];
  file: string;
  changes: string[];
  /** Why the definition is invalid (its pages show the same as an error panel). */
  problems: string[];
  pictures: Picture[];
  warnings: ReportWarning[];
  /** Script errors while drawing. */
  errors: string[];
}

export interface ReportDocument {
  base: string;
  summary: {
    added: number;
    changed: number;
    removed: number;
    unchanged: number;
    pictures: number;
    warnings: number;
    newWarnings: number;
    /** Definitions of the working tree that are invalid. */
    invalid: number;
  };
  definitions: ReportDefinition[];
}

const size = (v: Viewport) => `${v.width}x${v.height}`;
const KIND = { view: '视图', screen: '页面' } as const;
const STATUS = { added: '新增', changed: '修改', removed: '删除' } as const;
const CHECK_LABELS: Record<string, string> = {
  'column-under-operation': '列被「操作」遮住',
  'form-wider-than-dialog': '表单宽于对话框',
  'label-cut-off': '标签显示不全',
  'bare-id': '显示编号',
  'chart-axis-labels': '坐标轴标签',
  'dialog-taller-than-viewport': '对话框高于窗口',
};

const warningKey = (w: PageWarning) => `${w.check}\u0000${w.field}\u0000${w.message}`;

/** What an earlier report left in its folder; nothing else there is touched. */
const REPORT_ENTRY = /^((view|screen)-\d+|index\.html|summary\.md|review\.json)$/;

/** Builds the report's document and writes its pictures under `dir` (an earlier report's files removed first). */
export function writePictures(
  dir: string,
  base: string,
  items: readonly ReviewItem[],
  shots: ReadonlyMap<string, { before?: Shot[]; after?: Shot[] }>,
  unchanged: number,
): ReportDocument {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (REPORT_ENTRY.test(name)) rmSync(join(dir, name), { recursive: true, force: true });
  const definitions: ReportDefinition[] = [];
  for (const item of items) {
    const key = `${item.kind}-${item.id}`;
    const drawn = shots.get(key) ?? {};
    const folder = join(dir, key);
    mkdirSync(folder, { recursive: true });
    const pictures: Picture[] = [];
    const warnings: ReportWarning[] = [];
    const errors: string[] = [];
    // Each state at each size, in the order of STATE_LABELS and VIEWPORTS, with what either side drew.
    const find = (side: 'before' | 'after', state: PageState, v: Viewport) =>
      drawn[side]?.find((s) => s.state === state && s.viewport === v);
    const pairs = (Object.keys(STATE_LABELS) as PageState[]).flatMap((state) =>
      VIEWPORTS.map((v) => ({ k: `${state}-${size(v)}`, before: find('before', state, v), after: find('after', state, v) })),
    );
    for (const { k, before, after } of pairs) {
      const any = after ?? before;
      if (!any) continue;
      const pic: Picture = { state: any.state, label: STATE_LABELS[any.state], viewport: `${any.viewport.width}×${any.viewport.height}` };
      if (before) {
        pic.before = `${key}/${k}-before.png`;
        writeFileSync(join(dir, pic.before), before.png);
      }
      if (after) {
        pic.after = `${key}/${k}-after.png`;
        writeFileSync(join(dir, pic.after), after.png);
      }
      // The browser encodes the same pixels into the same bytes: equal files are equal pictures.
      if (before && after) pic.same = before.png.equals(after.png);
      pictures.push(pic);
      for (const s of [before, after]) for (const e of s?.errors ?? []) if (!errors.includes(e)) errors.push(e);
      if (after) {
        const old = new Set((before?.warnings ?? []).map(warningKey));
        for (const w of after.warnings) warnings.push({ ...w, picture: pic.after as string, new: !old.has(warningKey(w)) });
      }
    }
    definitions.push({
      kind: item.kind,
      id: item.id,
      name: item.name,
      status: item.status,
      file: item.file,
      changes: item.changes,
      problems: item.problems,
      pictures,
      warnings,
      errors,
    });
  }
  const count = (s: ReviewItem['status']) => items.filter((i) => i.status === s).length;
  const allWarnings = definitions.flatMap((d) => d.warnings);
  return {
    base,
    summary: {
      added: count('added'),
      changed: count('changed'),
      removed: count('removed'),
      unchanged,
      pictures: definitions.reduce((n, d) => n + d.pictures.length, 0),
      warnings: allWarnings.length,
      newWarnings: allWarnings.filter((w) => w.new).length,
      invalid: definitions.filter((d) => d.problems.length).length,
    },
    definitions,
  };
}

// Every text placed in index.html goes through esc, in content and in attributes alike (all double-quoted).
const esc = htmlText;
const title = (d: ReportDefinition) => `${KIND[d.kind]} ${d.id}${d.name ? ` ${d.name}` : ''}`;
/** The title in summary.md: the kind and id are the report's, the name is the definition's. */
const markdownTitle = (d: ReportDefinition) => `${KIND[d.kind]} ${d.id}${d.name ? ` ${markdownText(d.name)}` : ''}`;

function img(src: string | undefined, alt: string, empty: string): string {
  return src
    ? `<a href="${esc(src)}"><img src="${esc(src)}" alt="${esc(alt)}" loading="lazy"></a>`
    : `<div class="none">${esc(empty)}</div>`;
}

/** index.html: one card per definition. */
export function reportHtml(doc: ReportDocument): string {
  const s = doc.summary;
  const cards = doc.definitions.map((d) => {
    const warnings = d.warnings.length
      ? `<ul class="warnings">${d.warnings
          .map(
            (w) =>
              `<li class="${w.new ? 'new' : ''}"><b>${esc(CHECK_LABELS[w.check] ?? w.check)}</b>${w.new ? '<span class="tag">新</span>' : ''} ${esc(w.message)} <a href="${esc(w.picture)}">${esc(w.picture.split('/').pop() ?? '')}</a></li>`,
          )
          .join('')}</ul>`
      : '';
    const errors =
      d.errors.length || d.problems.length
        ? `<ul class="errors">${d.problems.map((p) => `<li>定义有误：<code>${esc(p)}</code></li>`).join('')}${d.errors.map((e) => `<li>页面出错：${esc(e)}</li>`).join('')}</ul>`
        : '';
    const rows = d.pictures
      .map((p) => {
        const same = p.same === true ? '<span class="same">无变化</span>' : p.same === false ? '<span class="changed">有变化</span>' : '';
        // The difference is the after laid over the before in the browser's difference blend: equal pixels turn black.
        const diff =
          p.before && p.after && !p.same
            ? `<div class="diff"><img src="${esc(p.before)}" alt=""><img class="over" src="${esc(p.after)}" alt="${esc(`${p.label} 差异`)}"></div>`
            : `<div class="none">${p.same ? '（相同）' : '（无）'}</div>`;
        return `<section class="shot${p.same ? ' is-same' : ''}"><h3>${esc(p.label)} · ${esc(p.viewport)} ${same}</h3><div class="pair">
<figure><figcaption>改前</figcaption>${img(p.before, `${p.label} 改前`, '（改前没有）')}</figure>
<figure><figcaption>改后</figcaption>${img(p.after, `${p.label} 改后`, '（改后没有）')}</figure>
<figure><figcaption>差异（亮处为变化）</figcaption>${diff}</figure>
</div></section>`;
      })
      .join('\n');
    return `<article class="card" id="${d.kind}-${d.id}">
<h2>${esc(title(d))} <span class="status ${d.status}">${STATUS[d.status]}</span></h2>
<p class="file">${esc(d.file)}</p>
<ul class="changes">${d.changes.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>
${warnings}${errors}
${rows}
</article>`;
  });
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>wastegen review</title>
<style>
body{margin:0;padding:24px;background:#f0f2f5;color:#1f2329;font:14px/1.6 "Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif}
h1{margin:0 0 4px;font-size:22px}
.meta{color:#666;margin:0 0 20px}
.card{background:#fff;border-radius:8px;padding:16px 20px;margin:0 0 24px;box-shadow:0 1px 3px rgb(0 0 0/8%)}
.card h2{margin:0;font-size:18px}
.file{margin:2px 0 8px;color:#888;font-family:monospace}
.status{font-size:12px;padding:1px 8px;border-radius:10px;color:#fff;vertical-align:middle}
.status.added{background:#389e0d}.status.changed{background:#2f6eff}.status.removed{background:#cf1322}
.changes li{margin:2px 0}
.warnings{padding:8px 8px 8px 28px;background:#fffbe6;border:1px solid #ffe58f;border-radius:6px}
.warnings li.new{font-weight:600}
.tag{margin:0 4px;padding:0 6px;border-radius:4px;background:#fa8c16;color:#fff;font-size:12px}
.errors{padding:8px 8px 8px 28px;background:#fff1f0;border:1px solid #ffa39e;border-radius:6px}
.shot h3{font-size:14px;margin:16px 0 6px}
.same{color:#888;font-weight:400}.changed{color:#cf1322;font-weight:400}
.pair{display:grid;grid-template-columns:repeat(3,1fr);gap:8px}
figure{margin:0}figcaption{color:#666;font-size:12px}
img{width:100%;border:1px solid #d9d9d9;display:block}
.none{border:1px dashed #d9d9d9;color:#999;padding:40px 0;text-align:center}
.diff{position:relative;border:1px solid #d9d9d9}.diff img{border:0}.diff .over{position:absolute;inset:0;mix-blend-mode:difference}
.is-same .pair{opacity:.6}
</style>
</head>
<body>
<h1>wastegen review</h1>
<p class="meta">与 ${esc(doc.base)} 相比：修改 ${s.changed} 个，新增 ${s.added} 个，删除 ${s.removed} 个，未变 ${s.unchanged} 个；图片 ${s.pictures} 组，警告 ${s.warnings} 条（新增 ${s.newWarnings} 条）。</p>
${cards.join('\n') || '<p>没有定义发生变化。</p>'}
</body>
</html>
`;
}

/** At most this many change lines per definition in summary.md; the rest are counted. */
const SUMMARY_LINES = 12;

/**
 * summary.md: short enough for a pull-request comment. Every text a definition controls (its name,
 * file, changes, warnings, problems and errors) is escaped (markdownText, markdownCode), so the
 * comment holds no markup, link, mention or reference of the definition's making.
 */
export function reportSummary(doc: ReportDocument): string {
  const s = doc.summary;
  const lines = [
    `## wastegen review：${s.changed + s.added + s.removed} 个定义有变化`,
    '',
    `与 ${markdownCode(doc.base)} 相比：修改 ${s.changed}，新增 ${s.added}，删除 ${s.removed}，未变 ${s.unchanged}；警告 ${s.warnings} 条（新增 ${s.newWarnings} 条）。图片见 \`index.html\`。`,
    '',
  ];
  if (doc.definitions.length) {
    lines.push('| 定义 | 状态 | 变化 | 警告 |', '|---|---|---|---|');
    for (const d of doc.definitions)
      lines.push(`| ${markdownTitle(d)} | ${STATUS[d.status]} | ${d.changes.length} | ${d.warnings.length} |`);
    lines.push('');
  }
  for (const d of doc.definitions) {
    lines.push(`### ${markdownTitle(d)}（${STATUS[d.status]}）`, '', markdownCode(d.file), '');
    for (const c of d.changes.slice(0, SUMMARY_LINES)) lines.push(`- ${markdownText(c)}`);
    if (d.changes.length > SUMMARY_LINES) lines.push(`- ……另有 ${d.changes.length - SUMMARY_LINES} 处`);
    for (const w of d.warnings) lines.push(`- ⚠️ ${w.new ? '**新** ' : ''}${markdownText(w.message)}（${markdownCode(w.picture)}）`);
    for (const p of d.problems) lines.push(`- ❌ 定义有误：${markdownCode(p)}`);
    for (const e of d.errors) lines.push(`- ❌ 页面出错：${markdownText(e)}`);
    const changed = d.pictures.filter((p) => p.same !== true);
    if (changed.length) lines.push(`- 有变化的图片：${changed.map((p) => markdownCode(p.after ?? p.before ?? '')).join('、')}`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Writes index.html, summary.md and review.json beside the pictures. */
export function writeReport(dir: string, doc: ReportDocument): void {
  writeFileSync(join(dir, 'index.html'), reportHtml(doc));
  writeFileSync(join(dir, 'summary.md'), reportSummary(doc));
  writeFileSync(join(dir, 'review.json'), `${JSON.stringify(doc, null, 2)}\n`);
}
