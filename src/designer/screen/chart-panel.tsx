import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import { Alert, Button, Collapse, Tag } from 'antd';
import { memo, type ReactNode, useEffect, useState } from 'react';
import { choices } from '../../shared/choices.js';
import { columnLabel } from './column-type.js';
import { ColorField, NumField, SelectField, SwitchField, TextField, useDesignValue } from './fields.js';
import { screenDesignApi } from './screen-api.js';
import { ALIGN_OPTIONS, CHART_LABELS, type DesignChart, type Path } from './template.js';
import { ThemeColorList } from './theme-colors.js';

interface DataViewOption {
  id: number;
  name: string;
}

interface ColumnsState {
  id?: number;
  columns: { name: string; type: string }[];
  loading: boolean;
  error?: string;
}

/** The data views an administrator can bind. */
function useDataViews(): { views: DataViewOption[]; loading: boolean; error?: string } {
  const [state, setState] = useState<{ views: DataViewOption[]; loading: boolean; error?: string }>({ views: [], loading: true });
  useEffect(() => {
    const controller = new AbortController();
    screenDesignApi.dataViews(controller.signal).then(
      (views) => setState({ views, loading: false }),
      (e: Error) => !controller.signal.aborted && setState({ views: [], loading: false, error: e.message }),
    );
    return () => controller.abort();
  }, []);
  return state;
}

/** A data view's columns. */
function useColumns(id: number | undefined): ColumnsState {
  const [state, setState] = useState<ColumnsState>({ columns: [], loading: false });
  useEffect(() => {
    if (id === undefined) {
      setState({ columns: [], loading: false });
      return;
    }
    const controller = new AbortController();
    setState((s) => ({ id, columns: s.id === id ? s.columns : [], loading: true }));
    screenDesignApi.columns(id, controller.signal).then(
      (columns) => setState({ id, columns, loading: false }),
      (e: Error) => !controller.signal.aborted && setState({ id, columns: [], loading: false, error: e.message }),
    );
    return () => controller.abort();
  }, [id]);
  return state;
}

function DataPanel({ chart, path }: { chart: DesignChart; path: Path }) {
  const views = useDataViews();
  const rawId = chart.configure.private.dataViewId;
  const id = typeof rawId === 'number' ? rawId : undefined;
  const columns = useColumns(id);
  const P = [...path, 'configure', 'private'];
  const options = columns.columns.map((c) => ({ value: c.name, label: columnLabel(c) }));
  const kind = chart.fileName;
  const viewOptions = views.views.map((v) => ({ value: v.id, label: `${v.name}（${v.id}）` }));
  // A bound data view the list does not hold (deleted, or beyond the first page) still shows its id.
  if (id !== undefined && !views.views.some((v) => v.id === id)) viewOptions.unshift({ value: id, label: `数据视图 ${id}` });
  return (
    <>
      {views.error && <Alert type="error" showIcon title={`数据视图加载失败：${views.error}`} />}
      <SelectField
        label="数据视图"
        path={[...P, 'dataViewId']}
        options={viewOptions}
        loading={views.loading}
        placeholder={kind === 'radar' ? '不选时显示示例数据' : '请选择数据视图'}
      />
      {columns.error && <Alert type="error" showIcon title={`字段加载失败：${columns.error}`} />}
      {id !== undefined && kind === 'lineBar' && (
        <>
          <SelectField label="X 轴字段" path={[...P, 'xAxisData']} options={options} loading={columns.loading} />
          <SelectField label="折线字段" path={[...P, 'yAxisData_line']} options={options} multiple loading={columns.loading} />
          <SelectField label="柱状字段" path={[...P, 'yAxisData_bar']} options={options} multiple loading={columns.loading} />
        </>
      )}
      {id !== undefined && (kind === 'pie' || kind === 'radar') && (
        <>
          <SelectField label="名称字段" path={[...P, 'seriesDataName']} options={options} loading={columns.loading} />
          <SelectField label="数值字段" path={[...P, 'seriesDataValue']} options={options} loading={columns.loading} />
        </>
      )}
      {kind === 'scrollList' && <NumField label="滚动间隔" path={[...P, 'interval']} min={1} integer suffix="毫秒" />}
      <NumField label="占比（flex）" path={[...path, 'flexSize']} min={0} step={0.5} />
    </>
  );
}

function ThemePanel({ path }: { path: Path }) {
  const C = [...path, 'configure', 'common'];
  return (
    <>
      <SelectField
        label="配色模式"
        path={[...C, 'colorModel']}
        allowClear={false}
        options={choices({ gradient: '渐变', solidColor: '纯色' })}
      />
      <SwitchField label="优先使用图表自己的主题色" path={[...C, 'privateColorFirst']} />
      <ThemeColorList path={[...C, 'themeColor']} name="图表主题色" note="画布设置了主题色时，打开上面的开关才使用这里的颜色。" />
    </>
  );
}

const SIDE_LABELS = { top: '上', bottom: '下', left: '左', right: '右' } as const;
const POSITIONS = choices(SIDE_LABELS);

/** A collapsible panel whose fields stand two to a row. */
const gridPanel = (key: string, label: string, fields: ReactNode) => ({
  key,
  label,
  children: <div className="wg-design-grid2">{fields}</div>,
});

export interface ChartPanelProps {
  index: number;
  itemId: string;
  chartIndex: number;
  onBack(i: string): void;
  onDelete(i: string, chart: number): void;
}

/** 图表配置 in collapsible panels: the ones the chart's kind reads. */
export const ChartPanel = memo(function ChartPanel({ index, itemId, chartIndex, onBack, onDelete }: ChartPanelProps) {
  const path = ['layout', index, 'chart', chartIndex] as const;
  const chart = useDesignValue(path) as DesignChart | undefined;
  if (!chart) return null;
  return <ChartPanelOf path={path} itemId={itemId} chartIndex={chartIndex} chart={chart} onBack={onBack} onDelete={onDelete} />;
});

function ChartPanelOf({
  path,
  itemId,
  chartIndex,
  chart,
  onBack,
  onDelete,
}: {
  path: Path;
  itemId: string;
  chartIndex: number;
  chart: DesignChart;
  onBack(i: string): void;
  onDelete(i: string, chart: number): void;
}) {
  const P = [...path, 'configure', 'private'];
  const kind = chart.fileName;
  const o = chart.configure.private;
  const inner = Number(o.radiusInside ?? 0);
  const outer = Number(o.radiusOutSide ?? 70);
  const panels: { key: string; label: string; children: ReactNode }[] = [
    { key: 'data', label: '数据', children: <DataPanel chart={chart} path={path} /> },
  ];
  const echarts = kind === 'lineBar' || kind === 'pie' || kind === 'radar';
  if (echarts || kind === 'siteInfo' || kind === 'provinceInfo' || kind === 'companyData')
    panels.push({ key: 'theme', label: '主题色', children: <ThemePanel path={path} /> });
  if (kind === 'lineBar') {
    const axis = (name: 'xAxis' | 'yAxis', label: string) => (
      <div key={name}>
        <div className="wg-design-sub">{label}</div>
        <div className="wg-design-grid2">
          <TextField label="名称" path={[...P, name, 'name']} />
          <SwitchField label="显示标签" path={[...P, name, 'axisLabel']} />
          <NumField label="最小值" path={[...P, name, 'min']} />
          <NumField label="最大值" path={[...P, name, 'max']} />
          <SwitchField label="显示轴线" path={[...P, name, 'axisLine']} />
          <SwitchField label="显示分隔线" path={[...P, name, 'splitLine']} />
        </div>
      </div>
    );
    panels.push(
      { key: 'axis', label: '坐标轴', children: [axis('xAxis', 'X 轴'), axis('yAxis', 'Y 轴')] },
      gridPanel(
        'line',
        '折线',
        <>
          <SelectField
            label="标记"
            path={[...P, 'line', 'symbol']}
            options={['emptyCircle', 'circle', 'rect', 'triangle', 'diamond', 'none'].map((v) => ({ value: v, label: v }))}
          />
          <NumField label="标记大小" path={[...P, 'line', 'symbolSize']} min={0} integer />
          <SwitchField label="阶梯线" path={[...P, 'line', 'step']} />
          <SwitchField label="面积" path={[...P, 'line', 'area']} />
          <SwitchField label="平滑" path={[...P, 'line', 'smooth']} />
        </>,
      ),
      gridPanel(
        'bar',
        '柱状',
        <>
          <SwitchField label="显示背景" path={[...P, 'bar', 'showBackground']} />
          <NumField label="圆角" path={[...P, 'bar', 'radius']} min={0} integer />
          <NumField label="柱宽" path={[...P, 'bar', 'barWidth']} min={1} integer />
        </>,
      ),
    );
  }
  if (echarts) {
    panels.push(
      gridPanel(
        'label',
        '标签',
        <>
          <SwitchField label="显示标签" path={[...P, 'label', 'show']} />
          <NumField label="字号" path={[...P, 'label', 'fontSize']} min={1} integer />
          {kind === 'pie' && <TextField label="单位" path={[...P, 'label', 'unit']} />}
        </>,
      ),
      {
        key: 'legend',
        label: '图例',
        children: (
          <>
            <div className="wg-design-grid2">
              <SwitchField label="显示图例" path={[...P, 'legend', 'show']} />
              <NumField label="字号" path={[...P, 'legend', 'size']} min={1} integer />
            </div>
            <SelectField label="位置" path={[...P, 'legend', 'position']} options={POSITIONS} />
            <TextField label="图例名称" path={[...P, 'legend', 'legendData']} hint="多个名称用逗号分隔" />
          </>
        ),
      },
    );
  }
  if (kind === 'lineBar')
    panels.push(
      gridPanel(
        'grid',
        '网格',
        (['top', 'right', 'bottom', 'left'] as const).map((side) => (
          <NumField key={side} label={SIDE_LABELS[side]} path={[...P, 'grid', side]} integer suffix="px" />
        )),
      ),
    );
  if (echarts)
    panels.push({
      key: 'title',
      label: '标题',
      children: (
        <>
          <SwitchField label="显示标题" path={[...P, 'title', 'show']} />
          <TextField label="标题文字" path={[...P, 'title', 'text']} />
          <ColorField label="颜色" path={[...P, 'title', 'color']} />
          <div className="wg-design-grid2">
            <NumField label="字号" path={[...P, 'title', 'size']} min={1} integer />
            <SelectField label="位置" path={[...P, 'title', 'position']} options={ALIGN_OPTIONS} />
          </div>
        </>
      ),
    });
  if (kind === 'pie')
    panels.push({
      key: 'radius',
      label: '饼图半径',
      children: (
        <>
          <div className="wg-design-grid2">
            <NumField label="内半径" path={[...P, 'radiusInside']} min={0} max={100} suffix="%" />
            <NumField label="外半径" path={[...P, 'radiusOutSide']} min={0} max={100} suffix="%" />
          </div>
          {inner > outer && <Alert type="warning" showIcon title="内半径不能大于外半径" />}
          <SelectField
            label="南丁格尔玫瑰图"
            path={[...P, 'roseType']}
            options={choices({ '': '不使用', radius: '半径模式', area: '面积模式' })}
          />
        </>
      ),
    });
  return (
    <section className="wg-design-panel" aria-label="图表配置">
      <div className="wg-design-panel-head">
        <Button size="small" type="text" icon={<ArrowLeftOutlined />} onClick={() => onBack(itemId)}>
          容器 {itemId}
        </Button>
        <Tag color="blue">
          {chartIndex + 1}. {CHART_LABELS[kind] ?? kind}
        </Tag>
        <Button danger size="small" icon={<DeleteOutlined />} onClick={() => onDelete(itemId, chartIndex)}>
          删除图表
        </Button>
      </div>
      <Collapse size="small" defaultActiveKey={['data', 'radius']} items={panels} />
    </section>
  );
}
