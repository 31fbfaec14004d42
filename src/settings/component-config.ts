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

/**
 * Every dialog fits the screen: its title and its buttons stay in view and its body scrolls between them
 * (a form taller than a 1366×768 screen included). A dialog sits 100 px below the top with 24 px below it
 * (antd's place for it); a centred one keeps 24 px above and below.
 */
const dialogStyles = (room: number) =>
  ({
    container: { display: 'flex', flexDirection: 'column', maxHeight: `calc(100vh - ${room}px)` },
    header: { flex: 'none' },
    body: { flex: '1 1 auto', minHeight: 0, overflowY: 'auto', overscrollBehavior: 'contain' },
    footer: { flex: 'none' },
  }) as const;
const PLACED = dialogStyles(100 + 24);
const CENTRED = dialogStyles(24 + 24);

export const MODAL_CONFIG: Pick<ConfigProviderProps, 'modal'> = {
  modal: { styles: ({ props }) => (props.centered ? CENTRED : PLACED) },
};
