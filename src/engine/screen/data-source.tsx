import { createContext, type ReactNode, useContext } from 'react';
// The call without its shapes: the viewer's page reaches this module and loads no contract shapes.
import { dataViews } from '../../contract/bare.gen';
import type { DataProvider } from '../services';

/**
 * Where a big screen's data comes from. The engine never calls the server itself: the app supplies
 * the source through a ScreenDataProvider: the in-app pages one over the engine's data provider
 * (screenDataOf), the viewer the logged-in one or a share link's open calls.
 */

/** A data view's answer: its column names and rows; `truncated` when the server's row cap was reached. */
export interface DataViewAnswer {
  columns: string[];
  list: Record<string, unknown>[];
  truncated?: boolean;
}

/** One row of the city-transaction chart: the city, the transaction amount and the paid amount, in yuan. */
export type CityRow = Record<string, unknown>;

export interface ScreenDataSource {
  /** Runs a data view. Rejects with an Error whose message is shown in the chart. */
  dataView(id: number, signal: AbortSignal): Promise<DataViewAnswer>;
  /** The city-transaction rows; `dataViewId` is the chart's data view, when it names one. */
  cityInfo(dataViewId: number | undefined, signal: AbortSignal): Promise<CityRow[]>;
}

export const NO_DATA_SOURCE_MESSAGE = '大屏数据源未配置';

const missing: ScreenDataSource = {
  dataView: () => Promise.reject(new Error(NO_DATA_SOURCE_MESSAGE)),
  cityInfo: () => Promise.reject(new Error(NO_DATA_SOURCE_MESSAGE)),
};

/** A data view's answer as the renderer reads it: columns and rows always lists. */
export function dataViewAnswerOf(raw: unknown): DataViewAnswer {
  const r = raw && typeof raw === 'object' ? (raw as Partial<DataViewAnswer>) : {};
  const list = Array.isArray(r.list) ? r.list.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : [];
  const columns = Array.isArray(r.columns) ? r.columns.map(String) : Object.keys(list[0] ?? {});
  return { columns, list, truncated: r.truncated === true };
}

export const DATA_VIEW_DETAIL_URL = dataViews.detail.path;

/**
 * The signed-in user's source over the engine's data provider: `dataViews.detail` per data
 * view; the city rows from the chart's own data view. Failures are shown in the charts, not as notices.
 */
export function screenDataOf(data: DataProvider): ScreenDataSource {
  const dataView = async (id: number, signal: AbortSignal) =>
    dataViewAnswerOf(await data.custom({ url: DATA_VIEW_DETAIL_URL, query: { id }, signal, silent: true }));
  return {
    dataView,
    cityInfo: async (id, signal) => (id === undefined ? [] : (await dataView(id, signal)).list),
  };
}

const ScreenDataContext = createContext<ScreenDataSource | null>(null);

export function ScreenDataProvider({ source, children }: { source: ScreenDataSource; children: ReactNode }) {
  return <ScreenDataContext.Provider value={source}>{children}</ScreenDataContext.Provider>;
}

/** The source of the nearest ScreenDataProvider; one that fails every call when there is none. */
export function useScreenDataSource(): ScreenDataSource {
  return useContext(ScreenDataContext) ?? missing;
}

/** The nearest ScreenDataProvider's source, if any. */
export function useProvidedScreenData(): ScreenDataSource | null {
  return useContext(ScreenDataContext);
}
