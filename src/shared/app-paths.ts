/**
 * The addresses of the app's own pages, each written once and typed: the route table, links,
 * redirects and guards use these. Low-code pages' addresses are the model's (src/model/routes.ts).
 */

export const APP_PATHS = {
  root: '/',
  login: '/login',
  /** Signs in with a query token. */
  login2: '/login2',
  init: '/init',
  serviceAgreement: '/serviceAgreement',
  privacyPolicy: '/privacyPolicy',
  entryAgreement: '/entryAgreement',
  home: '/abandonhome',
  dashboard: '/dashboard',
  userCenter: '/user/center',
  systemMessages: '/message/systemMessage',
  qrcodePrint: '/qrcode/print',
  viewPreview: '/dev-tools/preview',
  bigScreenViewer: '/lsPreview',
  bigScreenDesigner: '/lsDesign',
  forbidden: '/401',
  notFound: '/404',
  /** `/redirect/{path}` draws the page at {path} afresh. */
  redirect: '/redirect',
} as const;

/** The address of one of the app's own pages. */
export type AppPath = (typeof APP_PATHS)[keyof typeof APP_PATHS];

/** The login page, coming back to `back` (a path with its query) once signed in. */
export const loginPath = (back?: string): string =>
  back === undefined ? APP_PATHS.login : `${APP_PATHS.login}?redirect=${encodeURIComponent(back)}`;

/** The big-screen viewer (public) and designer of a type 2 screen. */
export const bigScreenViewerPath = (id: number): string => `${APP_PATHS.bigScreenViewer}?lsId=${id}`;
export const bigScreenDesignerPath = (id: number): string => `${APP_PATHS.bigScreenDesigner}?lsId=${id}`;

/** 视图预览 of a view as saved. */
export const viewPreviewPath = (id: number): string => `${APP_PATHS.viewPreview}?viewId=${id}`;

/**
 * What /401 says about a refusal, carried in the navigation's history state: the reason (the server's
 * refusal, or the page the user's menus do not grant) and the address that was refused.
 */
export interface ForbiddenState {
  reason: string;
  from?: string;
}

/** The history state of a navigation to /401 (an empty reason is left out). */
export function forbiddenState(reason: string | undefined, from?: string): ForbiddenState | undefined {
  const text = reason?.trim();
  return text ? { reason: text, ...(from ? { from } : {}) } : undefined;
}

/** The reason of a page the user's menus do not lead to, by its menu title when it has one. */
export const notInMenusReason = (title?: string | null): string => (title ? `你的菜单中没有「${title}」页面` : '你的菜单中没有该页面');

/**
 * /401 reached by a full page load (a page outside the app, such as the big-screen viewer): the refusal's
 * catalogue code and the refused address in the query. A code, never free text, so a link cannot make the
 * page say anything the server would not.
 */
export const forbiddenPath = (code: string, from: string): string =>
  `${APP_PATHS.forbidden}?${new URLSearchParams({ code, from }).toString()}`;

/** The reason /401 shows: from the navigation's state, or from its query's code (its text looked up by `messageOf`). */
export function forbiddenReasonOf(
  state: unknown,
  search = '',
  messageOf: (code: string) => string | undefined = () => undefined,
): ForbiddenState | undefined {
  const fromOf = (from: unknown) => (typeof from === 'string' && from.startsWith('/') ? { from: from.slice(0, 300) } : {});
  if (state && typeof state === 'object') {
    const { reason, from } = state as { reason?: unknown; from?: unknown };
    if (typeof reason === 'string' && reason) return { reason, ...fromOf(from) };
  }
  const query = new URLSearchParams(search);
  const reason = messageOf(query.get('code') ?? '');
  return reason ? { reason, ...fromOf(query.get('from')) } : undefined;
}
