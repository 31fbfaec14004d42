/** The calls the view designer makes: a definition with its version, its saves, publishing, and its pick lists. */
import { dict } from '../../contract/dict';
import { generation } from '../../contract/generation';
import { api } from '../../request/index';

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
  detail: (id: number): Promise<ViewDefinition> => api(generation.calls.detail, { query: { id } }),
  /** Saves the template and menu from `version` (none overwrites); a newer save answers 409. Quiet: the designer reports. */
  design: (body: { id: number; disTemplate: string; disMenu: string; version?: number }): Promise<Saved> =>
    api(generation.calls.design, { body }, { silent: true }),
  rename: (body: { id: number; name: string; version?: number }): Promise<Saved> =>
    api(generation.calls.update, { body }, { silent: true }),
  publish: (id: number): Promise<{ message: string }> => api(generation.calls.publish, { body: { id } }),
  /** Every view's id and name, for the buttons that open another view. */
  viewNames: async () => {
    const page = await api(generation.calls.list, { query: { page: 0, size: 9999 } });
    return page.content.map((v) => ({ id: v.id, name: v.name }));
  },
  /** Dictionary names; quiet, since a user may design views without managing dictionaries. */
  dictNames: async () => {
    const page = await api(dict.calls.list, { query: { page: 0, size: 9999 } }, { silent: true, skipAuthHandlers: true });
    return page.content.map((d) => d.name);
  },
};
