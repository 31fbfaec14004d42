/** The calls the view designer makes: a definition with its version, its saves, publishing, and its pick lists. */
import { dict } from '../../contract/dict';
import { api, http } from '../../request/index';

export interface ViewDefinition {
  id: number;
  name: string;
  status: number;
  disMenu: string | null;
  disTemplate: string | null;
  version?: number;
}

interface Saved {
  message: string;
  version?: number;
}

export const designApi = {
  detail: (id: number) => http.get<ViewDefinition>('/api/generation/detail', { id }),
  /** Saves the template and menu from `version` (none overwrites); a newer save answers 409. Quiet: the designer reports. */
  design: (body: { id: number; disTemplate: string; disMenu: string; version?: number }) =>
    http.post<Saved>('/api/generation/design', body, { silent: true }),
  rename: (body: { id: number; name: string; version?: number }) => http.post<Saved>('/api/generation/update', body, { silent: true }),
  publish: (id: number) => http.post<{ message: string }>('/api/generation/publish', { id }),
  /** Every view's id and name, for the buttons that open another view. */
  viewNames: async () => {
    const page = await http.get<{ content: { id: number; name: string }[] }>('/api/generation/list', { page: 0, size: 9999 });
    return page.content.map((v) => ({ id: v.id, name: v.name }));
  },
  /** Dictionary names; quiet, since a user may design views without managing dictionaries. */
  dictNames: async () => {
    const page = await api(dict.calls.list, { query: { page: 0, size: 9999 } }, { silent: true, skipAuthHandlers: true });
    return page.content.map((d) => d.name);
  },
};
