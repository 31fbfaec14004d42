import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, ColorPicker, Divider, Space, Tooltip } from 'antd';
import { useDesigner, useDesignValue } from './fields.js';
import { type Path, PRESET_THEME_COLORS } from './template.js';

type Theme = { start: string; end: string };

/** The list at `path` as start/end pairs; a plain colour text is both ends. */
function themesOf(v: unknown): Theme[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((x): Theme[] => {
    if (typeof x === 'string') return x ? [{ start: x, end: x }] : [];
    const r = x && typeof x === 'object' ? (x as Record<string, unknown>) : {};
    const start = typeof r.start === 'string' && r.start ? r.start : undefined;
    if (!start) return [];
    return [{ start, end: typeof r.end === 'string' && r.end ? r.end : start }];
  });
}

/**
 * A whole list of theme colours (the canvas's, or a chart's own): every colour's start and end, each
 * moved up or down or deleted, one more added, the eight predefined ones added one at a time or
 * taken all at once, and the list cleared.
 */
export function ThemeColorList({ path, name, note }: { path: Path; name: string; note?: string }) {
  const { edit } = useDesigner();
  const list = themesOf(useDesignValue(path));
  const set = (next: Theme[]) => edit(path, next);
  const move = (n: number, by: -1 | 1) => {
    const next = [...list];
    const to = n + by;
    [next[n], next[to]] = [next[to] as Theme, next[n] as Theme];
    set(next);
  };
  return (
    <fieldset className="wg-design-theme" aria-label={name}>
      {note && <p className="wg-design-note">{note}</p>}
      {list.length === 0 && <p className="wg-design-note">暂无主题色</p>}
      {list.map((c, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a theme colour is its place in the list
        <Space key={n} size={4} className="wg-design-theme-row" aria-label={`${name} ${n + 1}`}>
          <span className="wg-design-theme-index">{n + 1}</span>
          <ColorPicker
            value={c.start}
            size="small"
            aria-label={`${name} ${n + 1} 起始`}
            onChange={(v) => edit([...path, n], { ...c, start: v.toHexString() }, `${path.join('/')}/${n}s`)}
          />
          <span>→</span>
          <ColorPicker
            value={c.end}
            size="small"
            aria-label={`${name} ${n + 1} 结束`}
            onChange={(v) => edit([...path, n], { ...c, end: v.toHexString() }, `${path.join('/')}/${n}e`)}
          />
          <Button
            size="small"
            type="text"
            aria-label={`上移${name} ${n + 1}`}
            icon={<ArrowUpOutlined />}
            disabled={n === 0}
            onClick={() => move(n, -1)}
          />
          <Button
            size="small"
            type="text"
            aria-label={`下移${name} ${n + 1}`}
            icon={<ArrowDownOutlined />}
            disabled={n === list.length - 1}
            onClick={() => move(n, 1)}
          />
          <Button
            size="small"
            type="text"
            danger
            aria-label={`删除${name} ${n + 1}`}
            icon={<DeleteOutlined />}
            onClick={() => set(list.filter((_, k) => k !== n))}
          />
        </Space>
      ))}
      <Space wrap size={6}>
        <Button size="small" icon={<PlusOutlined />} onClick={() => set([...list, { start: '#2F6EFF', end: '#00C6FF' }])}>
          添加主题色
        </Button>
        <Button size="small" onClick={() => set(PRESET_THEME_COLORS.map((c) => ({ ...c })))}>
          使用全部预定义主题色
        </Button>
        <Button size="small" danger disabled={list.length === 0} onClick={() => set([])}>
          清空主题色
        </Button>
      </Space>
      <Divider plain>预定义主题色</Divider>
      <div className="wg-design-presets">
        {PRESET_THEME_COLORS.map((c) => (
          <Tooltip key={c.start} title={`${c.start} → ${c.end}`}>
            <button
              type="button"
              className="wg-design-preset"
              aria-label={`添加预定义主题色 ${c.start}`}
              style={{ background: `linear-gradient(180deg, ${c.start}, ${c.end})` }}
              onClick={() => set([...list, { ...c }])}
            />
          </Tooltip>
        ))}
      </div>
    </fieldset>
  );
}
