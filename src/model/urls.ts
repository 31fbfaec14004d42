/**
 * Addresses a definition gives the app to open or follow (a button's websiteUrl): an http or https
 * URL, a mailto: or tel: link, or an address without a scheme (a path of the app). Any other scheme
 * is refused: `javascript:` and `vbscript:` run script in the app's origin, `data:` opens a page of
 * the definition's making. The same rule holds in the model, which refuses such a definition, and in
 * the engine, which refuses to open such an address whatever page model it was given.
 */

/** The schemes an address may have; one without a scheme is a path of the app. */
export const OPENABLE_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];

/**
 * The scheme of an address as a browser reads it (lower case), or undefined when it has none. A
 * browser drops leading controls and spaces, and tabs and line breaks anywhere, before it reads the
 * scheme: so that ` java\tscript:` is read as `javascript:`, this does too.
 */
export function urlScheme(url: string): string | undefined {
  let start = 0;
  while (start < url.length && url.charCodeAt(start) <= 0x20) start++;
  const read = url.slice(start).replace(/[\t\n\r]/g, '');
  return /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(read)?.[1]?.toLowerCase();
}

/** Whether the app may open or follow an address: http, https, mailto, tel, or no scheme. */
export function isOpenableUrl(url: string): boolean {
  const scheme = urlScheme(url);
  return scheme === undefined || OPENABLE_SCHEMES.includes(scheme);
}

/** What may not stand in an image address: what ends or escapes a CSS string, and control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what an image address may not hold
const NOT_IN_IMAGE_URL = /["\\\u0000-\u001f\u007f]/;

/**
 * Image addresses a definition has drawn (a screen's `bgImg`, a `bg` that names an image, an
 * `image://` chart symbol) end up in CSS `url("…")` or an image's `src`: they may be a path of the
 * app or an https URL, nothing else. No other scheme (`http:` would leak the page's address in the
 * clear, `data:` and `blob:` carry content of the definition's making, `javascript:` has no place in
 * a picture), no host without a scheme (`//evil.example`, read as a browser reads it), and no quote,
 * backslash or control character, which could end or alter the CSS string it is placed in.
 */
export function imageUrlProblem(url: string): string | undefined {
  if (NOT_IN_IMAGE_URL.test(url))
    return 'an image address may not hold a double quote, a backslash or a control character (line breaks, tabs)';
  const scheme = urlScheme(url);
  if (scheme !== undefined)
    return scheme === 'https'
      ? undefined
      : `the app draws no ${scheme}: images; an image address must be an https URL or a path of the app`;
  if (/^\s*\/\//.test(url)) return 'an image address starting with // names another host; write https://… or a path of the app';
  return undefined;
}

/** Whether an image address may be drawn (imageUrlProblem has nothing against it). */
export const isDrawableImageUrl = (url: string): boolean => imageUrlProblem(url) === undefined;

/**
 * Text a "colour or image" setting holds that the engine draws as an image rather than as a colour. An
 * image's file name ends the address or its path (before a `?`): one test per position, no `.*` to backtrack.
 */
export const IMAGE_ADDRESS = /^(https?:|data:image\/|blob:|\/|\.\/|\.\.\/)|\.(png|jpe?g|gif|webp|svg|bmp)(?:\?|$)/i;

/** CSS functions that load a resource, in a value that is to be a colour or a gradient. */
const LOADING_FUNCTION = /(?:url|src|image|image-set|cross-fade|element|paint)\(/i;

/**
 * What is wrong with a setting drawn as a CSS `background` (a colour, a gradient, or an image address,
 * as IMAGE_ADDRESS tells them apart): an image is judged by imageUrlProblem; a colour may load
 * nothing (no `url(`, `image-set(`, …) and hold no backslash (a CSS escape could spell one).
 */
export function backgroundProblem(text: string): string | undefined {
  if (IMAGE_ADDRESS.test(text.trim())) return imageUrlProblem(text);
  if (text.includes('\\') || LOADING_FUNCTION.test(text))
    return 'a background colour may not load an image (url(), image-set() and the like, or a backslash); give the image as an address of its own';
  return undefined;
}
