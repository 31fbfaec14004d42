import type { ConfigProviderProps } from 'antd/es/config-provider';

/** Select options are limited to this width: a select's dropdown never grows wider. */
export const SELECT_POPUP_MAX_WIDTH = 600;

const popup = { popup: { root: { maxWidth: SELECT_POPUP_MAX_WIDTH } } };

/** The app's defaults for antd's select-like components: their dropdowns at most 600 px wide. */
export const SELECT_CONFIG: Pick<ConfigProviderProps, 'select' | 'treeSelect' | 'cascader'> = {
  select: { styles: popup },
  treeSelect: { styles: popup },
  cascader: { styles: popup },
};
