import createDOMPurify, { type DOMPurify } from 'dompurify';
import './safe-html.css';

/**
 * The one way HTML written by people (rich-text fields, system messages, bulletins, agreements) reaches
 * the page. Its writer is another company, or an administrator, so it may carry text and its plain
 * markup only:
 * - no script, event handler, frame, form or control, and no `javascript:` or `data:` link;
 * - no `style`, `class` or `id`: markup that could restyle or cover the page (a link stretched over the
 *   whole window, the app's own overlay classes), or clobber the page's own elements;
 * - links only to http(s), mailto and tel addresses or to the app's own pages, opened in a new window
 *   without access to this one;
 * - pictures only from the app's own addresses or https.
 * Pictures are kept within their box by the stylesheet (`.wg-html img`), not by the markup.
 */

/** The class of an element showing sanitised HTML: its pictures fit its width. */
export const SAFE_HTML_CLASS = 'wg-html';

const LINK = /^(?:https?:|mailto:|tel:|\/(?!\/)|#)/i;
const PICTURE = /^(?:https:|\/(?!\/))/i;

let purifier: DOMPurify | null = null;

function instance(): DOMPurify {
  if (purifier) return purifier;
  // An instance of its own: its hooks reach no other user of the library.
  const p = createDOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href')?.trim() ?? '';
      if (href && !LINK.test(href)) node.removeAttribute('href');
      if (node.hasAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else node.removeAttribute('target');
    }
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src')?.trim() ?? '';
      if (!PICTURE.test(src)) node.removeAttribute('src');
    }
  });
  purifier = p;
  return p;
}

/** People's HTML, safe to set as an element's content (see above). */
export function safeHtml(html: string): string {
  return instance().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'select', 'textarea', 'dialog', 'template', 'video', 'audio', 'source', 'picture'],
    FORBID_ATTR: ['style', 'class', 'id', 'name', 'srcset', 'formaction'],
    ALLOW_DATA_ATTR: false,
  });
}
