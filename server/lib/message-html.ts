/**
 * System messages (sys_message.title and content) are HTML: the app shows them sanitised, so the
 * platform's own markup (links, emphasis) works. Whatever a user wrote goes into that HTML as text:
 * escaped, so a tag, link or picture in it is shown as written and does nothing.
 */

declare const built: unique symbol;
/** HTML made by messageHtml (or written by an administrator as a message): what a system message holds. */
export type MessageHtml = string & { readonly [built]: true };

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML that shows it as written. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/**
 * A system message's HTML from a template: the template's own markup stays HTML, and every value put
 * into it (`${…}`) is escaped as text, whoever wrote it.
 */
export function messageHtml(strings: TemplateStringsArray, ...values: unknown[]): MessageHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += escapeHtml(String(v ?? '')) + (strings[i + 1] ?? '');
  });
  return out as MessageHtml;
}

/** HTML an administrator wrote as a message (POST /api/sysMessage): the platform's own, kept as it is. */
export const adminHtml = (html: string): MessageHtml => html as MessageHtml;

/**
 * `html` with every `<…>` removed, in one pass: each `<` up to the next `>`; from a `<` with no `>`
 * after it on, the text stays. (What /<[^>]*>/g does, without its quadratic time on many `<`.)
 */
function withoutTags(html: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = html.indexOf('<', at);
    const close = open < 0 ? -1 : html.indexOf('>', open);
    if (close < 0) return out + html.slice(at);
    out += html.slice(at, open);
    at = close + 1;
  }
}

/** Text of an HTML title for a toast: tags dropped, common entities decoded. */
export function plainText(html: string): string {
  const entities: Record<string, string> = { nbsp: ' ', lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'" };
  return withoutTags(html)
    .replace(/&(nbsp|lt|gt|amp|quot|#39);/g, (_, e: string) => entities[e] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}
