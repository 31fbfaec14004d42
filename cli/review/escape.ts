import { HIDDEN_IN_NAMES } from '../../src/shared/person-rule.js';

/**
 * The review report's text that a definition controls (names, labels, field and button names, values,
 * file names, messages quoting them), made safe for where it is placed: summary.md is posted as a
 * pull-request comment, index.html is opened in a browser. Such text is never markup there.
 */

/** Line breaks, tabs and the other spacing controls: one space, as the report shows each text on one line. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/** Controls and invisible or direction characters, shown by their code point so that none hides or reorders text. */
const HIDDEN = new RegExp(HIDDEN_IN_NAMES.source, 'gu');
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const codePoint = (c: string) => `[U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}]`;

/** The text on one line: breaks become a space, hidden characters their code point, a lone surrogate U+FFFD. */
export function visibleText(s: string): string {
  return s.replace(LONE_SURROGATE, '\ufffd').replace(BREAKS, ' ').replace(HIDDEN, codePoint);
}

/** At most `max` characters of a one-line text, the rest cut with an ellipsis (a comment has a size limit). */
function clip(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : s;
}

/** At most this many characters of one definition-controlled text in summary.md. */
export const SUMMARY_TEXT_MAX = 300;

/** Markdown's inline punctuation (emphasis, code, links, images, tables, strikethrough, math, the `:` and `.` of bare links): escaped. */
const MARKDOWN_PUNCTUATION = /[\\`*_[\]()!|~$:.]/g;

/**
 * Definition text as plain text of a GitHub comment, in a table cell, a heading or a list item: HTML
 * (`<`, `>`, `&`) as entities, Markdown's punctuation backslash-escaped, a leading list marker escaped,
 * and `@` and `#` as their full-width forms (GitHub links mentions, `#123` and `GH-123` after reading
 * the Markdown, whatever its escapes), so the text links, mentions and formats nothing.
 */
export function markdownText(s: string, max = SUMMARY_TEXT_MAX): string {
  return clip(visibleText(s).trim(), max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(MARKDOWN_PUNCTUATION, '\\$&')
    .replace(/@/g, '＠')
    .replace(/#/g, '＃')
    .replace(/\b(gh)-(?=\d)/gi, '$1\u2011')
    .replace(/^[-+]/, '\\$&');
}

/**
 * Definition text as a Markdown code span (file names, problems): shown as it is, with no link,
 * mention or markup; the fence is one backtick longer than any run of backticks in the text. Not for
 * a table cell, where a `|` would still end the cell.
 */
export function markdownCode(s: string, max = SUMMARY_TEXT_MAX): string {
  const text = clip(visibleText(s), max);
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A text that starts or ends with a backtick, or with a space at both ends, is padded with one space each side (which the reader drops).
  const spaced = text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '';
  const pad = text.startsWith('`') || text.endsWith('`') || spaced ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Text for HTML, in content or in a quoted attribute: `& < > " '` as entities, and visible on one line. */
export function htmlText(s: string): string {
  return visibleText(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
