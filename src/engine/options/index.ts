/** Option loading of the engine's pages: dictionaries batched once per page, remote options and regions cached. */
export { createDictLoader, type DictLoader, dictNames, entriesOf } from './dict-loader';
export {
  createOptionsStore,
  DICT_MAP_URL,
  type DictState,
  OptionsProvider,
  type OptionsStore,
  REGION_TREE_URL,
  type RemoteOptionsState,
  useDict,
  useDictLabel,
  useOptionsStore,
  useRegionTree,
  useRemoteOptions,
} from './options-provider';
export { createRemoteCache, findOption, labelPath, normalizeOptions, remoteKey, remoteParams, remoteSources } from './remote-options';
export type { DictEntry, LoadStatus, RemoteOption } from './types';
