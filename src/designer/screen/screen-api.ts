/** The calls the screen designer makes: a screen with its version, its saves, the data views its charts bind, and its pictures. */

import { dataViews } from '../../contract/data-views';
import { urlOf } from '../../contract/define';
import { files } from '../../contract/files';
import { screens } from '../../contract/screens';
import { api } from '../../request/index';

export const screenDesignApi = {
  /** The screen as stored; quiet, the designer shows why it could not load. */
  detail: (id: number, signal: AbortSignal) => api(screens.calls.detail, { query: { id } }, { signal, silent: true }),
  /** Saves the template from `version` (none overwrites); a newer save answers 409. Quiet: the designer reports. */
  design: (body: { id: number; disTemplate: string; version?: number }) => api(screens.calls.design, { body }, { silent: true }),
  /** The data views a chart can bind (the first 1000); quiet, the chart panel says why they could not load. */
  dataViews: async (signal: AbortSignal) =>
    (await api(dataViews.calls.list, { query: { page: 0, size: 1000 } }, { signal, silent: true })).content,
  /** A data view's columns; quiet, the chart panel says why they could not load. */
  columns: async (id: number, signal: AbortSignal) =>
    (await api(dataViews.calls.columns, { query: { id } }, { signal, silent: true })).columns,
  /**
   * Uploads a picture as an open file (`open=1`): share links and wall displays, which send no token,
   * draw it. `columnName` names the field it is for.
   */
  uploadImage: (file: Blob, columnName: string) => {
    const body = new FormData();
    body.append('file', file);
    body.append('columnName', columnName);
    body.append('open', '1');
    return api(files.calls.upload, { body });
  },
};

/** The address an uploaded picture is drawn from: the open image call, so share links and wall displays without a session show it. */
export const uploadedImageUrl = (filePath: string) => urlOf(files.calls.openImage, { query: { source: filePath } });
