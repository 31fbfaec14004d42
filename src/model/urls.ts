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
