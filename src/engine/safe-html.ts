import createDOMPurify, { type DOMPurify } from 'dompurify';
import './safe-html.css';

/**
 * The one way HTML written by people (rich-text fields, system messages, bulletins, agreements) reaches
 * the page. Its writer is another company, or an administrator, so it may carry text and its plain
 * markup only:
 * - no script, event handler, frame, form or control, and no `javascript:` or `data:` link;
 * - no `style`, `class` or `id`, nor presentational markup (font, sizes, colours, marquee): markup that
 *   could restyle or cover the page (a link stretched over the whole window, the app's own overlay
 *   classes), or clobber the page's own elements; no direction control or invisible character in its text;
 * - links only to http(s), mailto and tel addresses or to the app's own pages, opened in a new window
 *   without access to this one, and never naming the file they save (`download`);
 * - pictures only from the app's own addresses or https.
 * Pictures are kept within their box by the stylesheet (`.wg-html img`), not by the markup.
 */

/** The class of an element showing sanitised HTML: its pictures fit its width. */
export const SAFE_HTML_CLASS = 'wg-html';

/** Markup that sizes, moves or animates text, or reorders it, beyond what plain markup does. */
const FORBID_TAGS = [
  ...['style', 'form', 'input', 'button', 'select', 'textarea', 'dialog', 'template', 'video', 'audio', 'source', 'picture'],
  ...['font', 'big', 'marquee', 'blink', 'center', 'bdo', 'frameset', 'frame', 'object', 'embed', 'applet'],
];
/**
 * Attributes that style, size or hide (the presentational ones too), that save or announce a link
 * (`download` names the saved file, `ping` calls out), or that take over focus or the page's layers.
 */
const FORBID_ATTR = [
  ...['style', 'class', 'id', 'name', 'srcset', 'formaction', 'download', 'ping', 'background', 'bgcolor'],
  ...['width', 'height', 'size', 'color', 'face', 'hidden', 'inert', 'dir', 'tabindex', 'accesskey', 'autofocus'],
  ...['contenteditable', 'draggable', 'popover', 'popovertarget', 'popovertargetaction', 'commandfor', 'command'],
];

/** Characters that reorder or hide text: direction controls, and invisible format characters. */
const HIDDEN_CHARS = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * Where an address of the markup leads, judged once the browser has resolved it (`/\evil.example` and
 * `/<TAB>/evil.example` lead off the site): a link to http(s), mailto, tel or this site; a picture from
 * this site or https. Undefined when it may not be kept.
 */
function allowed(value: string, picture: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value, window.location.href);
  } catch {
    return undefined;
  }
  if (url.origin === window.location.origin && (url.protocol === 'http:' || url.protocol === 'https:'))
    return url.pathname + url.search + url.hash;
  if (picture) return url.protocol === 'https:' ? url.href : undefined;
  return ['http:', 'https:', 'mailto:', 'tel:'].includes(url.protocol) ? url.href : undefined;
}

let purifier: DOMPurify | null = null;

function instance(): DOMPurify {
  if (purifier) return purifier;
  // An instance of its own: its hooks reach no other user of the library.
  const p = createDOMPurify(window);
  p.addHook('beforeSanitizeElements', (node) => {
    if (node.nodeType === Node.TEXT_NODE && node.textContent) node.textContent = node.textContent.replace(HIDDEN_CHARS, '');
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    for (const attr of ['alt', 'title']) {
      const v = node.getAttribute(attr);
      if (v !== null) node.setAttribute(attr, v.replace(HIDDEN_CHARS, ''));
    }
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      const kept = href === null ? undefined : allowed(href.trim(), false);
      if (kept === undefined) node.removeAttribute('href');
      else node.setAttribute('href', kept);
      if (node.hasAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else node.removeAttribute('target');
    }
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src');
      const kept = src === null ? undefined : allowed(src.trim(), true);
      if (kept === undefined) node.removeAttribute('src');
      else node.setAttribute('src', kept);
    }
  });
  purifier = p;
  return p;
}

/** People's HTML, safe to set as an element's content (see above). */
export function safeHtml(html: string): string {
  return instance().sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS, FORBID_ATTR, ALLOW_DATA_ATTR: false });
}
