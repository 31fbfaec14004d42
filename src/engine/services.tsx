/**
 * What the engine needs from the app that runs it, behind one interface the app supplies through
 * <EngineServicesProvider>: the records of views (a data provider after refine's), file downloads,
 * notices, the user's permissions, navigation and the registry of generated pages. The engine
 * imports nothing else of the app, so it runs, and is tested, with any implementation of these.
 */
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { ListApi } from '../model';
import type { ConfirmOptions, Notifier } from '../shared/notice';
import type { GeneratedRoute } from './routes';

/**
 * A call the server refused or that never got an answer: the HTTP status (0 without one), the
 * message to show and, for a refused record, each field's message by field name.
 */
export class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** A record as the server sends it. */
export type Row = Record<string, unknown>;

/**
 * A record as a form reads it: its values, and `writable`, the fields the caller may change when it may
 * change only those (a party that did not create the record, the department a message is addressed to).
 */
export interface RecordRead {
  values: Row;
  writable?: readonly string[];
}

/**
 * A row of a view whose form values are `T`: the server's values under T's field names, as it sent
 * them (the list answer is not parsed, so their types are not T's), and any other column.
 */
export type RecordRow<T> = { readonly [K in keyof T]?: unknown } & Row;

/** The view a call reads or writes: its id and the endpoints its model names. */
export interface ViewResource {
  viewId: number;
  api: ListApi;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** The caller shows the failure itself: no error notice (a 401 or 403 still reacts). */
  silent?: boolean;
}

export interface ListResult {
  rows: Row[];
  total: number;
  /** `total` is the database's estimate (a filter over more rows than it counts exactly): shown as 约 N 条. */
  estimated?: boolean;
}

/** The import's answer: a spreadsheet with a verdict per row, and the counts when the server sent them. */
export interface ImportResult {
  file: Blob;
  fileName?: string;
  succeeded?: number;
  failed?: number;
}

/** Any other call: dictionaries, remote options, uploads, file previews, custom buttons' URLs, definitions. */
export interface CustomCall extends CallOptions {
  url: string;
  method?: 'get' | 'post';
  query?: Record<string, unknown>;
  /** A JSON body. */
  payload?: unknown;
  /** A multipart body (uploads). */
  multipart?: FormData;
  /** `blob` reads the answer as a file (previews). */
  responseType?: 'json' | 'blob';
}

/** Every call rejects with an HttpError; an aborted call rejects with the abort. */
export interface DataProvider {
  /** One page of the list: the list call's query (paging, sort, filters); `page` is 1-based, and the provider sends it in its server's base. */
  getList(p: { resource: ViewResource; query: Record<string, unknown> } & CallOptions): Promise<ListResult>;
  /** One record by its key; undefined when the answer holds none. */
  getOne(p: { resource: ViewResource; key: string; id: unknown } & CallOptions): Promise<RecordRead | undefined>;
  create(p: { resource: ViewResource; values: Row } & CallOptions): Promise<unknown>;
  update(p: { resource: ViewResource; values: Row } & CallOptions): Promise<unknown>;
  deleteMany(p: { resource: ViewResource; ids: unknown[] } & CallOptions): Promise<unknown>;
  /** Every row the query matches as a spreadsheet; resolves whether the file was saved. */
  export(p: { resource: ViewResource; query: Record<string, unknown>; fileName: string }): Promise<boolean>;
  import(p: { resource: ViewResource; file: File }): Promise<ImportResult>;
  /** The server's initial values of a new record (initGroovy). */
  preAdd(p: { resource: ViewResource } & CallOptions): Promise<Row | undefined>;
  /** A custom button's script on the records `ids`. */
  groovy(p: { resource: ViewResource; name: string; action: string; ids: unknown[] }): Promise<unknown>;
  custom<T = unknown>(call: CustomCall): Promise<T>;
}

export type { ConfirmOptions };
export type EngineNotifier = Notifier;

export interface PageLocation {
  pathname: string;
  search: string;
}

export interface EngineNavigation {
  /** A hook: the address of the page that calls it (a page kept in a hidden tab keeps its own). */
  useLocation(): PageLocation;
  /** In-app navigation; `replace` puts the address in place of the one shown instead of after it. */
  navigate(path: string, options?: { replace?: boolean }): void;
  /** Closes the page shown at `pathname` (its tab), showing another one if it was in front. */
  closePage(pathname: string): void;
}

/** Where a list page is shown, for an app that adds to its toolbar. */
export interface ListToolbarSlot {
  /** The address of the page the list is part of. */
  pathname: string;
  viewId: number;
  /** The list's view by its componentName, which the app keys its additions by. */
  componentName: string;
  /** Loads the list's current page again (after the app's own button changed its records). */
  reload: () => void;
}

/** What the app adds to engine pages; every part is optional and adds nothing when absent. */
export interface EngineExtensions {
  /** More toolbar content for a list, after its own buttons: null or undefined adds nothing. */
  listToolbar?(slot: ListToolbarSlot): ReactNode;
}

export interface EngineServices {
  data: DataProvider;
  /** Fetches a file with the session and saves it under the server's name (else `fileName`); resolves whether it was saved. */
  download(url: string, query?: Record<string, unknown>, fileName?: string): Promise<boolean>;
  /** Hands a file already in memory to the browser's save. */
  saveFile(file: Blob, fileName: string): void;
  notify: EngineNotifier;
  /** Whether the user holds a permission (any of a list); admin and the wildcard hold all. */
  can(permission: string | readonly string[]): boolean;
  navigation: EngineNavigation;
  /** The build's generated pages. */
  routes: readonly GeneratedRoute[];
  extensions?: EngineExtensions;
}

const EngineServicesContext = createContext<EngineServices | null>(null);

export function EngineServicesProvider({ services, children }: { services: EngineServices; children?: ReactNode }) {
  return <EngineServicesContext.Provider value={services}>{children}</EngineServicesContext.Provider>;
}

export function useEngineServices(): EngineServices {
  const services = useContext(EngineServicesContext);
  if (!services) throw new Error('Engine pages need <EngineServicesProvider> above them');
  return services;
}

export interface PageNavigation extends PageLocation {
  navigate(path: string, options?: { replace?: boolean }): void;
  /** Closes this page's tab. */
  closePage(): void;
}

/** The calling page's address, navigation, and the closing of its own tab. */
export function usePageNavigation(): PageNavigation {
  const { navigation } = useEngineServices();
  const { pathname, search } = navigation.useLocation();
  return useMemo(
    () => ({ pathname, search, navigate: navigation.navigate, closePage: () => navigation.closePage(pathname) }),
    [navigation, pathname, search],
  );
}
