import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, ColorPicker, Divider, Space, Tabs, Tooltip } from 'antd';
import { memo } from 'react';
import {
  BackgroundPlacement,
  ColorField,
  HEADER_IMAGE_TYPES,
  ImageField,
  NumField,
  SwitchField,
  TextField,
  useDesigner,
  useDesignValue,
} from './fields.js';
import { PRESET_THEME_COLORS } from './template.js';

const C = 'canvasConfigure';

function ThemeColors() {
  const { edit } = useDesigner();
  const list = (useDesignValue([C, 'themeColor']) ?? []) as { start: string; end: string }[];
  const path = [C, 'themeColor'] as const;
  const set = (next: { start: string; end: string }[]) => edit(path, next);
  return (
    <div className="wg-design-theme">
      <p className="wg-design-note">未设置主题色时，每个图表使用自己的颜色；设置后，所有图表默认使用主题色。</p>
      {list.length === 0 && <p className="wg-design-note">暂无主题色</p>}
      {list.map((c, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a theme colour is its place in the list
        <Space key={n} className="wg-design-theme-row" aria-label={`主题色 ${n + 1}`}>
          <span>起始</span>
          <ColorPicker value={c.start} showText onChange={(v) => edit([...path, n, 'start'], v.toHexString(), `theme${n}s`)} />
          <span>结束</span>
          <ColorPicker value={c.end} showText onChange={(v) => edit([...path, n, 'end'], v.toHexString(), `theme${n}e`)} />
          <Button
            type="text"
            danger
            aria-label={`删除主题色 ${n + 1}`}
            icon={<DeleteOutlined />}
            onClick={() => set(list.filter((_, k) => k !== n))}
          />
        </Space>
      ))}
      <Button icon={<PlusOutlined />} onClick={() => set([...list, { start: '#2F6EFF', end: '#00C6FF' }])}>
        添加主题色
      </Button>
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
    </div>
  );
}

/** 画布配置: the basic settings, then 头部, 主标题, 副标题 and 主题色. */
export const CanvasPanel = memo(function CanvasPanel() {
  const live = useDesignValue([C, 'subTitle', 'time']) === true;
  const B = [C, 'basic'];
  return (
    <section className="wg-design-panel" aria-label="画布配置">
      <Divider plain>基础设置</Divider>
      <div className="wg-design-grid2">
        <NumField label="宽度" path={[...B, 'width']} min={1} integer suffix="px" />
        <NumField label="高度" path={[...B, 'height']} min={1} integer suffix="px" />
        <NumField label="栅格列数" path={[...B, 'defaultCol']} min={1} integer />
        <NumField label="间距" path={[...B, 'margin']} min={0} integer suffix="px" />
        <NumField label="默认宽度" path={[...B, 'defaultW']} min={1} integer hint="栅格数" />
        <NumField label="默认高度" path={[...B, 'defaultH']} min={1} integer hint="栅格数" />
        <SwitchField label="自动更新" path={[...B, 'autoUpdate']} />
        <NumField label="更新间隔" path={[...B, 'timer']} min={1} integer suffix="秒" />
      </div>
      <ColorField label="背景颜色" path={[...B, 'bgColor']} />
      <ImageField label="背景图片" path={[...B, 'bgImg']} />
      <Tabs
        items={[
          {
            key: 'header',
            label: '头部',
            children: (
              <>
                <div className="wg-design-grid2">
                  <NumField label="头部高度" path={[C, 'header', 'height']} min={0} integer suffix="px" />
                  <NumField label="头部上边距" path={[C, 'header', 'marginTop']} min={0} integer suffix="px" />
                </div>
                <ImageField label="头部背景图片" path={[C, 'header', 'bgImg']} types={HEADER_IMAGE_TYPES} />
                <BackgroundPlacement path={[C, 'header']} positionLabel="背景对齐" />
              </>
            ),
          },
          {
            key: 'mainTitle',
            label: '主标题',
            children: (
              <>
                <TextField label="标题文字" path={[C, 'mainTitle', 'content']} placeholder="默认为大屏名称" />
                <div className="wg-design-grid2">
                  <NumField label="标题宽度" path={[C, 'mainTitle', 'width']} min={0} integer suffix="px" />
                  <NumField label="标题高度" path={[C, 'mainTitle', 'height']} min={0} integer suffix="px" />
                  <NumField label="标题上边距" path={[C, 'mainTitle', 'marginTop']} min={0} integer suffix="px" />
                  <NumField label="字号" path={[C, 'mainTitle', 'size']} min={1} integer suffix="px" />
                </div>
                <ColorField label="文字颜色" path={[C, 'mainTitle', 'color']} />
                <SwitchField label="加粗" path={[C, 'mainTitle', 'bold']} />
                <TextField
                  label="文字阴影"
                  path={[C, 'mainTitle', 'shadow']}
                  placeholder="0 0 10px rgba(47, 110, 255, 0.8)"
                  hint="CSS text-shadow 格式"
                />
                <ImageField label="标题背景图片" path={[C, 'mainTitle', 'bg']} />
              </>
            ),
          },
          {
            key: 'subTitle',
            label: '副标题',
            children: (
              <>
                <SwitchField label="显示实时时间" path={[C, 'subTitle', 'time']} hint="格式 yyyy.MM.dd HH:mm:ss" />
                {!live && <TextField label="自定义文字" path={[C, 'subTitle', 'content']} />}
                <div className="wg-design-grid2">
                  <NumField label="上边距" path={[C, 'subTitle', 'marginTop']} min={0} integer suffix="px" />
                  <NumField label="字号" path={[C, 'subTitle', 'size']} min={1} integer suffix="px" />
                </div>
                <ColorField label="文字颜色" path={[C, 'subTitle', 'color']} />
                <SwitchField label="加粗" path={[C, 'subTitle', 'bold']} />
              </>
            ),
          },
          { key: 'theme', label: '主题色', children: <ThemeColors /> },
        ]}
      />
    </section>
  );
});
