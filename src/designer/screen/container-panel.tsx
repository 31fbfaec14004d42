import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Divider, Empty, List, Tabs, Tag } from 'antd';
import { memo, type ReactNode } from 'react';
import { choices } from '../../shared/choices.js';
import {
  BackgroundPlacement,
  ColorField,
  ImageField,
  NumField,
  SelectField,
  SwitchField,
  TextField,
  useDesigner,
  useDesignValue,
  useProblemsAt,
} from './fields.js';
import { ALIGN_OPTIONS, CHART_LABELS, type DesignChart, moveChart, pointerOfPath } from './template.js';

const BORDER_STYLES = ['solid', 'dashed', 'dotted', 'double'].map((v) => ({ value: v, label: v }));

/** One of a chart's small buttons in the container's list, named by its label. */
const chartAction = (label: string, icon: ReactNode, onClick: () => void, more?: { disabled?: boolean; danger?: boolean }) => (
  <Button key={label} type="text" size="small" aria-label={label} icon={icon} onClick={onClick} {...more} />
);

function ChartProblems({ pointer }: { pointer: string }) {
  const text = useProblemsAt(pointer, true);
  const count = text ? text.split('\n').length : 0;
  return count > 0 ? <Tag color="error">{count} 个问题</Tag> : null;
}

export interface ContainerPanelProps {
  index: number;
  /** The container's id. */
  i: string;
  onSelectChart(i: string, chart: number): void;
  onAddChart(): void;
  onDeleteChart(i: string, chart: number): void;
  onDelete(i: string): void;
}

/** 容器配置: 样式, 标题 and 高级, and the container's charts in their order. */
export const ContainerPanel = memo(function ContainerPanel({
  index,
  i,
  onSelectChart,
  onAddChart,
  onDeleteChart,
  onDelete,
}: ContainerPanelProps) {
  const { apply } = useDesigner();
  const P = ['layout', index, 'container'] as const;
  const S = [...P, 'style'];
  const H = [...P, 'header'];
  const U = [...P, 'super'];
  const charts = (useDesignValue(['layout', index, 'chart']) ?? []) as DesignChart[];
  const abs = useDesignValue([...U, 'absolute', 'enabled']) === true;
  const scroll = useDesignValue([...U, 'scroll', 'enabled']) === true;
  const curtain = useDesignValue([...U, 'curtain', 'enabled']) === true;
  const showTitle = useDesignValue([...H, 'showTitle']) === true;
  return (
    <section className="wg-design-panel" aria-label="容器配置">
      <div className="wg-design-panel-head">
        <span>
          容器 <Tag>{i}</Tag>
        </span>
        <Button danger size="small" icon={<DeleteOutlined />} onClick={() => onDelete(i)}>
          删除容器
        </Button>
      </div>
      <Divider plain>图表</Divider>
      {charts.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="容器中暂无图表" />
      ) : (
        <List
          size="small"
          className="wg-design-chart-list"
          dataSource={charts}
          renderItem={(chart, n) => (
            <List.Item
              actions={[
                chartAction(`配置图表 ${n + 1}`, <SettingOutlined />, () => onSelectChart(i, n)),
                chartAction(`上移图表 ${n + 1}`, <ArrowUpOutlined />, () => apply((t) => moveChart(t, i, n, -1)), { disabled: n === 0 }),
                chartAction(`下移图表 ${n + 1}`, <ArrowDownOutlined />, () => apply((t) => moveChart(t, i, n, 1)), {
                  disabled: n === charts.length - 1,
                }),
                chartAction(`删除图表 ${n + 1}`, <DeleteOutlined />, () => onDeleteChart(i, n), { danger: true }),
              ]}
            >
              <button type="button" className="wg-design-link" onClick={() => onSelectChart(i, n)}>
                {n + 1}. {CHART_LABELS[chart.fileName] ?? chart.fileName}
              </button>
              <ChartProblems pointer={pointerOfPath(['layout', index, 'chart', n])} />
            </List.Item>
          )}
        />
      )}
      <Button block icon={<PlusOutlined />} onClick={onAddChart} style={{ marginTop: 8 }}>
        添加图表到此容器
      </Button>
      <Tabs
        style={{ marginTop: 8 }}
        items={[
          {
            key: 'style',
            label: '样式',
            children: (
              <>
                <div className="wg-design-grid2">
                  <NumField label="内边距" path={[...S, 'padding']} min={0} integer suffix="px" />
                  <NumField label="圆角" path={[...S, 'borderRadius']} min={0} integer suffix="px" />
                </div>
                <ColorField label="背景颜色" path={[...S, 'bgColor']} />
                <ImageField label="背景图片" path={[...S, 'bgImg']} />
                <BackgroundPlacement path={S} />
                <TextField label="阴影" path={[...S, 'boxShadow']} placeholder="inset 0 0 10px rgba(0, 0, 0, 0.3)" />
                <div className="wg-design-grid2">
                  <NumField label="边框宽度" path={[...S, 'borderSize']} min={0} integer suffix="px" />
                  <SelectField label="边框样式" path={[...S, 'borderStyle']} options={BORDER_STYLES} />
                </div>
                <ColorField label="边框颜色" path={[...S, 'borderColor']} />
              </>
            ),
          },
          {
            key: 'header',
            label: '标题',
            children: (
              <>
                <SwitchField label="显示标题" path={[...H, 'showTitle']} />
                {showTitle && (
                  <>
                    <TextField label="标题内容" path={[...H, 'content']} />
                    <div className="wg-design-grid2">
                      <NumField label="标题高度" path={[...H, 'height']} min={1} integer suffix="px" />
                      <NumField label="字号" path={[...H, 'fontSize']} min={1} integer suffix="px" />
                    </div>
                    <ColorField label="文字颜色" path={[...H, 'color']} />
                    <SelectField label="对齐" path={[...H, 'textAlign']} options={ALIGN_OPTIONS} />
                    <TextField label="外边距" path={[...H, 'margin']} placeholder="0 16px" />
                    <TextField label="内边距" path={[...H, 'padding']} placeholder="0 16px" />
                    <TextField label="背景（颜色或图片地址）" path={[...H, 'bg']} />
                    <TextField label="下边框" path={[...H, 'borderBottom']} placeholder="1px solid #2A4A8A" />
                  </>
                )}
              </>
            ),
          },
          {
            key: 'super',
            label: '高级',
            children: (
              <>
                <SelectField
                  label="图表排列方向"
                  path={[...U, 'flexDirection']}
                  allowClear={false}
                  options={choices({ row: '横向', column: '纵向' })}
                />
                <SwitchField label="绝对定位" path={[...U, 'absolute', 'enabled']} />
                {abs && (
                  <div className="wg-design-grid2">
                    <NumField label="上" path={[...U, 'absolute', 'top']} integer suffix="px" />
                    <NumField label="左" path={[...U, 'absolute', 'left']} integer suffix="px" />
                  </div>
                )}
                <SwitchField label="轮播滚动" path={[...U, 'scroll', 'enabled']} />
                {scroll && (
                  <>
                    <SelectField
                      label="滚动方向"
                      path={[...U, 'scroll', 'direction']}
                      allowClear={false}
                      options={choices({ vertical: '纵向', horizontal: '横向' })}
                    />
                    <NumField label="滚动速度" path={[...U, 'scroll', 'speed']} min={1} integer suffix="毫秒" />
                    <SelectField
                      label="动画"
                      path={[...U, 'animation']}
                      options={choices({ slide: '滑动', fade: '淡入淡出', zoom: '缩放' })}
                    />
                  </>
                )}
                <SwitchField label="幕布" path={[...U, 'curtain', 'enabled']} />
                {curtain && <ColorField label="幕布颜色" path={[...U, 'curtain', 'curtainColor']} />}
              </>
            ),
          },
        ]}
      />
    </section>
  );
});
