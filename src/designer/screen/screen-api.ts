/** The calls the screen designer makes: a screen with its version, and its saves. */
import { screens } from '../../contract/screens';
import { api } from '../../request/index';

export const screenDesignApi = {
  /** The screen as stored; quiet, the designer shows why it could not load. */
  detail: (id: number, signal: AbortSignal) => api(screens.calls.detail, { query: { id } }, { signal, silent: true }),
  /** Saves the template from `version` (none overwrites); a newer save answers 409. Quiet: the designer reports. */
  design: (body: { id: number; disTemplate: string; version?: number }) => api(screens.calls.design, { body }, { silent: true }),
};
