import { CheckOutlined } from '@ant-design/icons';
import { Button, Divider, Drawer, Flex, Switch, Tooltip, Typography } from 'antd';
import { type Settings, settingsStore, THEME_PRESETS, useSettings } from '../settings/settings-store';

const THEME_NAMES: Record<(typeof THEME_PRESETS)[number], string> = {
  '#2F6EFF': '默认蓝',
  '#1890FF': '拂晓蓝',
  '#304156': '藏青',
  '#212121': '墨黑',
  '#11A983': '薄荷绿',
  '#13C2C2': '明青',
  '#6959CD': '石板紫',
  '#F5222D': '薄暮红',
};

type Toggle = keyof Pick<Settings, 'tagsView' | 'fixedHeader' | 'sidebarLogo' | 'uniqueOpened'>;
const TOGGLES: { key: Toggle; label: string }[] = [
  { key: 'tagsView', label: '显示标签栏' },
  { key: 'fixedHeader', label: '固定头部' },
  { key: 'sidebarLogo', label: '显示侧边栏 Logo' },
  { key: 'uniqueOpened', label: '菜单只展开一项' },
];

/** 系统布局设置: theme colour (applied at once) and the layout switches, kept by the settings store. */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const settings = useSettings();
  return (
    <Drawer title="系统布局设置" placement="right" size={300} open={open} onClose={onClose}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        主题颜色
      </Typography.Title>
      <Flex wrap gap={10} role="group" aria-label="主题颜色">
        {THEME_PRESETS.map((color) => {
          const checked = settings.theme.toUpperCase() === color;
          return (
            <Tooltip key={color} title={`${THEME_NAMES[color]} ${color}`}>
              <button
                type="button"
                aria-pressed={checked}
                aria-label={`${THEME_NAMES[color]} ${color}`}
                className="wg-swatch"
                style={{ background: color }}
                onClick={() => settingsStore.set({ theme: color })}
              >
                {checked && <CheckOutlined />}
              </button>
            </Tooltip>
          );
        })}
      </Flex>
      <Divider />
      <Flex vertical gap={16}>
        {TOGGLES.map(({ key, label }) => (
          <Flex key={key} justify="space-between" align="center">
            <label htmlFor={`wg-setting-${key}`}>{label}</label>
            <Switch id={`wg-setting-${key}`} checked={settings[key]} onChange={(v) => settingsStore.set({ [key]: v })} />
          </Flex>
        ))}
      </Flex>
      <Divider />
      <Button block onClick={() => settingsStore.reset()}>
        恢复默认设置
      </Button>
    </Drawer>
  );
}
