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
