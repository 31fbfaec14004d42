import { describe, expect, it } from 'vitest';
import { htmlText, markdownCode, markdownText } from '../../cli/review/escape.js';
import { type ReportDocument, reportHtml, reportSummary } from '../../cli/review/report.js';

/**
 * The review's summary.md is posted as a pull-request comment and its index.html opened in a browser:
 * a definition's text (its name, labels, field and button names, values) is neither markup, link,
 * mention nor reference in either, however it is written.
 */

/** A definition name written to break out: a link, HTML, a comment, code, a table cell, mentions, references, a line break and a direction override. */
const HOSTILE =
  '](https://evil.example) <img src=x onerror=alert(1)> `x` | @octocat #123 GH-9 <!-- c -->\n[link](javascript:alert(1)) **b** \u202eevil';

/** HOSTILE as summary.md writes it. */
const HOSTILE_MD =
  String.raw`\]\(https\://evil\.example\) &lt;img src=x onerror=alert\(1\)&gt; \`x\` \| ＠octocat ＃123 GH` +
  '\u2011' +
  String.raw`9 &lt;\!-- c --&gt; \[link\]\(javascript\:alert\(1\)\) \*\*b\*\* \[U+202E\]evil`;

const PICTURE = 'view-12/list-1366x768-after.png';

const doc: ReportDocument = {
  base: 'origin/main',
  summary: { added: 0, changed: 1, removed: 0, unchanged: 3, pictures: 1, warnings: 1, newWarnings: 1, invalid: 1 },
  definitions: [
    {
      kind: 'view',
      id: 12,
      name: HOSTILE,
      status: 'changed',
      file: 'definitions/views/12-`x`.json',
      changes: [`列表字段「${HOSTILE}」(f) 新增`, '- 1. nested\nlist'],
      problems: ['definitions/views/12-x.json#/name: got "``a`"'],
      pictures: [
        { state: 'list', label: '列表', viewport: '1366×768', before: 'view-12/list-1366x768-before.png', after: PICTURE, same: false },
      ],
      warnings: [{ check: 'label-cut-off', field: HOSTILE, message: `标签「${HOSTILE}」显示不全`, picture: PICTURE, new: true }],
      errors: ['TypeError: @x is not a function'],
    },
  ],
};

describe('the review report, given hostile definition text', () => {
  it('escapes Markdown and HTML, neutralises mentions and references, and keeps the text on one line', () => {
    expect(markdownText(HOSTILE)).toBe(HOSTILE_MD);
    // A leading list marker would nest a list in the item it is written in.
    expect(markdownText('- 1. x')).toBe(String.raw`\- 1\. x`);
    expect(markdownText('+ x')).toBe(String.raw`\+ x`);
    expect(markdownText('a\u2066b\u200bc\u0000d')).toBe(String.raw`a\[U+2066\]b\[U+200B\]c\[U+0000\]d`);
    expect(markdownText('www.evil.example ~~s~~ $x$ _i_')).toBe(String.raw`www\.evil\.example \~\~s\~\~ \$x\$ \_i\_`);
    expect(markdownText('x'.repeat(400))).toBe(`${'x'.repeat(299)}…`);
  });

  it('writes code spans with a fence longer than any run of backticks in them', () => {
    expect(markdownCode('a`b')).toBe('``a`b``');
    expect(markdownCode('``a`')).toBe('``` ``a` ```');
    expect(markdownCode('a\nb\u202e')).toBe('`a b[U+202E]`');
  });

  it('writes summary.md with every definition text escaped', () => {
    const md = reportSummary(doc);
    const lines = md.split('\n');
    expect(lines).toContain(`| 视图 12 ${HOSTILE_MD} | 修改 | 2 | 1 |`);
    expect(lines).toContain(`### 视图 12 ${HOSTILE_MD}（修改）`);
    expect(lines).toContain('``definitions/views/12-`x`.json``');
    expect(lines).toContain(`- 列表字段「${HOSTILE_MD}」\\(f\\) 新增`);
    expect(lines).toContain(String.raw`- \- 1\. nested list`);
    expect(lines).toContain(`- ⚠️ **新** 标签「${HOSTILE_MD}」显示不全（\`${PICTURE}\`）`);
    expect(lines).toContain('- ❌ 定义有误：```definitions/views/12-x.json#/name: got "``a`"```');
    expect(lines).toContain(String.raw`- ❌ 页面出错：TypeError\: ＠x is not a function`);
    expect(lines).toContain(`- 有变化的图片：\`${PICTURE}\``);
    // Nothing of the definition's is left that GitHub would read as markup, a mention or a reference.
    expect(md).not.toMatch(/<img|<!--|@octocat|#123|\u202e|\n\[link\]/);
  });

  it('writes index.html with every definition text escaped, attributes included', () => {
    const html = reportHtml(doc);
    expect(html).toContain(
      '<h2>视图 12 ](https://evil.example) &lt;img src=x onerror=alert(1)&gt; `x` | @octocat #123 GH-9 &lt;!-- c --&gt; [link](javascript:alert(1)) **b** [U+202E]evil <span class="status changed">修改</span></h2>',
    );
    expect(html).toContain('<p class="file">definitions/views/12-`x`.json</p>');
    expect(html).toContain('<li>定义有误：<code>definitions/views/12-x.json#/name: got &quot;``a`&quot;</code></li>');
    expect(html).not.toMatch(/<img src=x|<!-- c|\u202e/);
    expect(htmlText(`"'<>&\n`)).toBe('&quot;&#39;&lt;&gt;&amp; ');
    // Every attribute is double-quoted and its value escaped: no definition text ends one.
    for (const value of html.matchAll(/ [a-z-]+="([^"]*)"/g)) expect(value[1]).not.toMatch(/[<>]/);
  });
});
