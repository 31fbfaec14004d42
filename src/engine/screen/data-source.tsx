import { createContext, type ReactNode, useContext } from 'react';

/**
 * Where a big screen's data comes from. The engine never calls the server itself: the app supplies
 * an implementation (the logged-in one through its request client, or a share link's open calls) and
 * the renderer reads it from context, or from the default the app registers once.
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

let fallback: ScreenDataSource = missing;

/** The source screens use when no ScreenDataProvider is above them; the app sets it once at start. */
export function setDefaultScreenDataSource(source: ScreenDataSource | null): void {
  fallback = source ?? missing;
}

const ScreenDataContext = createContext<ScreenDataSource | null>(null);

export function ScreenDataProvider({ source, children }: { source: ScreenDataSource; children: ReactNode }) {
  return <ScreenDataContext.Provider value={source}>{children}</ScreenDataContext.Provider>;
}

export function useScreenDataSource(): ScreenDataSource {
  return useContext(ScreenDataContext) ?? fallback;
}
