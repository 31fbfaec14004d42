import { Divider, Tabs } from 'antd';
import { memo } from 'react';
import {
  BackgroundPlacement,
  ColorField,
  HEADER_IMAGE_TYPES,
  ImageField,
  NumField,
  SwitchField,
  TextField,
  useDesignValue,
} from './fields.js';
import { ThemeColorList } from './theme-colors.js';

const C = 'canvasConfigure';

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
                  <NumField label="头部宽度" path={[C, 'header', 'width']} min={0} integer suffix="px" hint="留空为画布宽度，居中" />
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
                <BackgroundPlacement path={[C, 'mainTitle']} positionLabel="标题背景对齐" sizeLabel="标题背景尺寸" />
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
          {
            key: 'theme',
            label: '主题色',
            children: (
              <ThemeColorList
                path={[C, 'themeColor']}
                name="主题色"
                note="未设置主题色时，每个图表使用自己的颜色；设置后，所有图表默认使用主题色。"
              />
            ),
          },
        ]}
      />
    </section>
  );
});
