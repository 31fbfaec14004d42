import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { SELECT_CONFIG, SELECT_POPUP_MAX_WIDTH } from './component-config';
import { antdSize, MINI_CONTROL_HEIGHT, SIZES, sizeTokens } from './settings-store';

/** The token values antd derives for a size's theme. */
const tokensOf = (size: Parameters<typeof sizeTokens>[0]) => theme.getDesignToken({ token: sizeTokens(size) });

describe('layout sizes', () => {
  it('offers default, medium, small and mini', () => {
    expect(SIZES.map((s) => s.value)).toEqual(['default', 'medium', 'small', 'mini']);
    expect(SIZES.map((s) => antdSize(s.value))).toEqual(['large', 'middle', 'small', 'small']);
  });

  it('makes mini visibly smaller than small: lower controls and smaller text', () => {
    const small = tokensOf('small');
    const mini = tokensOf('mini');
    expect(mini.controlHeightSM).toBe(MINI_CONTROL_HEIGHT);
    expect(mini.controlHeightSM).toBeLessThan(small.controlHeightSM);
    expect(mini.fontSize).toBeLessThan(small.fontSize);
    for (const s of ['default', 'medium', 'small'] as const) expect(sizeTokens(s)).toEqual({});
  });

  it('caps the dropdowns of selects, tree selects and cascaders at 600 px', () => {
    expect(SELECT_POPUP_MAX_WIDTH).toBe(600);
    for (const c of Object.values(SELECT_CONFIG)) expect(c).toEqual({ styles: { popup: { root: { maxWidth: 600 } } } });
    expect(Object.keys(SELECT_CONFIG).sort()).toEqual(['cascader', 'select', 'treeSelect']);
  });
});
