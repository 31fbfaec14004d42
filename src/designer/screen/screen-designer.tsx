import {
  AppstoreAddOutlined,
  BarChartOutlined,
  DownloadOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  FundProjectionScreenOutlined,
  RedoOutlined,
  SaveOutlined,
  SettingOutlined,
  UndoOutlined,
  UploadOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Alert, Badge, Button, Empty, Form, Popover, Result, Select, Space, Spin, Tag, Tooltip } from 'antd';
import { memo } from 'react';
import { CANVAS_DEFAULTS, isWarning, type Problem } from '../../model/index.js';
import { ConflictDialog } from '../conflict-dialog.js';
import type { CloseGuard } from '../document.js';
import { CanvasPanel } from './canvas-panel.js';
import { ChartPanel } from './chart-panel.js';
import { ContainerPanel } from './container-panel.js';
import { DesignCanvas } from './design-canvas.js';
import { DesignerContext } from './fields.js';
import { ChartGallery } from './gallery.js';
import { type PanelActions, type ToolbarActions, useScreenDesign, type Zoom } from './use-screen-design.js';
import './designer.css';

/**
 * The big-screen designer: edits a screen's disTemplate on the viewer's own renderer, with the
 * page model's problems at the controls they point to, undo and redo, a crash-safe draft in the
 * browser, and a save that refuses to overwrite someone else's newer save without asking. Its state
 * and actions are useScreenDesign's; this component lays them out.
 */

export { draftKey, EXPORTED, IMPORTED, LAYOUT_KEY, NOTHING_TO_IMPORT, SAVED } from './use-screen-design.js';

export interface ScreenDesignerProps {
  lsId: number;
  /** The tag bar's guard: closing the page's tab with unsaved changes asks first. */
  closeGuard?: CloseGuard;
}

export function ScreenDesigner({ lsId, closeGuard }: ScreenDesignerProps) {
  const design = useScreenDesign(lsId, closeGuard);

  // ----- drawing -----
  const load = design.lifecycle.load;
  if (load.status === 'loading' || (load.status === 'ready' && design.taken !== design.lifecycle.loads))
    return (
      <Spin tip="正在加载大屏…" size="large" className="wg-design-loading" fullscreen={false}>
        <div style={{ height: 320 }} />
      </Spin>
    );
  if (load.status === 'error')
    return (
      <Result
        status="error"
        title="大屏加载失败"
        subTitle={load.message}
        extra={
          <Button type="primary" onClick={() => design.lifecycle.reload()}>
            重试
          </Button>
        }
      />
    );
  if (design.screen.type !== 2)
    return <Result status="warning" title="该页面不是大屏" subTitle="只有类型为大屏（2）的页面可以在这里设计" />;

  const width = Math.max(1, Number(design.template.canvasConfigure.basic.width) || CANVAS_DEFAULTS.basic.width);
  const fitScale = design.paneWidth > 0 ? Math.max(0.05, (design.paneWidth - 32) / width) : 0.5;
  const scale = design.zoom === 'fit' ? fitScale : design.zoom;
  const chart = design.selection.kind === 'chart' && design.item ? design.item.chart[design.selection.chart] : undefined;

  return (
    <DesignerContext.Provider value={design.designer}>
      <div className="wg-design" data-dirty={design.dirty || undefined}>
        <Toolbar
          name={design.screen.name}
          dirty={design.dirty}
          canUndo={design.history.past.length > 0}
          canRedo={design.history.future.length > 0}
          canvasSelected={design.selection.kind === 'canvas'}
          problems={design.checked.problems}
          saving={design.lifecycle.saving}
          panelHidden={design.panelHidden}
          zoom={design.zoom}
          showProblems={design.showProblems}
          actions={design.actions}
        />
        {design.errors.length > 0 && (
          <Alert
            type="error"
            showIcon
            className="wg-design-alert"
            title={`大屏配置有 ${design.errors.length} 个错误，修正后才能保存`}
            description={design.errors[0]?.message}
            action={
              <Button size="small" onClick={() => design.setShowProblems(true)}>
                查看
              </Button>
            }
          />
        )}
        <div className="wg-design-body">
          <div ref={design.setPane} className="wg-design-pane">
            {design.model ? (
              <DesignCanvas
                model={design.model}
                template={design.canvasTemplate}
                glide={design.byGrid}
                scale={scale}
                selected={design.selectedItem}
                onSelect={design.onSelect}
                onCells={design.onCells}
                onKeyDown={design.onCanvasKey}
              />
            ) : (
              <Empty description="大屏配置无法读取，请查看配置问题" />
            )}
            {design.template.layout.length === 0 && <div className="wg-design-hint">点击“添加容器”或“添加图表”开始设计</div>}
          </div>
          {!design.panelHidden && (
            <SideBar
              kind={design.selection.kind === 'chart' && chart ? 'chart' : design.item ? 'item' : 'canvas'}
              index={design.itemIndex}
              i={design.item?.i ?? ''}
              chart={design.selection.kind === 'chart' ? design.selection.chart : -1}
              actions={design.panelActions}
            />
          )}
        </div>
        <ChartGallery open={design.gallery} target={design.item?.i} onPick={design.onPickChart} onClose={design.closeGallery} />
        <ConflictDialog document={design.lifecycle} noun="大屏" work="设计" onOverwrite={() => void design.save(true)} />
      </div>
    </DesignerContext.Provider>
  );
}

interface ToolbarProps {
  name: string;
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  canvasSelected: boolean;
  problems: readonly Problem[];
  saving: boolean;
  panelHidden: boolean;
  zoom: Zoom;
  showProblems: boolean;
  actions: ToolbarActions;
}

/** The header: the screen's name, the unsaved flag and the designer's buttons (these labels exactly). */
const Toolbar = memo(function Toolbar({
  name,
  dirty,
  canUndo,
  canRedo,
  canvasSelected,
  problems,
  saving,
  panelHidden,
  zoom,
  showProblems,
  actions,
}: ToolbarProps) {
  const errors = problems.filter((p) => !isWarning(p));
  const problemList = (
    <ul className="wg-design-problems">
      {problems.map((p: Problem) => (
        <li key={`${p.pointer}:${p.message}`}>
          <button type="button" className="wg-design-link" onClick={() => actions.pickProblem(p.pointer)}>
            <Tag color={isWarning(p) ? 'warning' : 'error'}>{isWarning(p) ? '警告' : '错误'}</Tag>
            {p.message}
            <div className="wg-design-pointer">{p.pointer || '/'}</div>
          </button>
        </li>
      ))}
    </ul>
  );

  return (
    <div className="wg-design-toolbar" role="toolbar" aria-label="大屏设计">
      <div className="wg-design-title">
        <FundProjectionScreenOutlined /> 大屏设计 · {name}
        {dirty && (
          <Tag color="orange" className="wg-design-dirty">
            未保存
          </Tag>
        )}
      </div>
      <Space wrap size={6}>
        <Button icon={<SettingOutlined />} type={canvasSelected ? 'primary' : 'default'} ghost={canvasSelected} onClick={actions.canvas}>
          画布配置
        </Button>
        <Button icon={<AppstoreAddOutlined />} onClick={actions.newContainer}>
          添加容器
        </Button>
        <Button icon={<BarChartOutlined />} onClick={actions.gallery}>
          添加图表
        </Button>
        <Tooltip title="撤销 (Ctrl+Z)">
          <Button icon={<UndoOutlined />} aria-label="撤销" disabled={!canUndo} onClick={actions.undo} />
        </Tooltip>
        <Tooltip title="重做 (Ctrl+Shift+Z / Ctrl+Y)">
          <Button icon={<RedoOutlined />} aria-label="重做" disabled={!canRedo} onClick={actions.redo} />
        </Tooltip>
        <Popover
          open={showProblems && problems.length > 0}
          onOpenChange={actions.showProblems}
          trigger="click"
          title="大屏配置问题"
          content={problemList}
        >
          <Badge count={errors.length} size="small">
            <Button icon={<WarningOutlined />} danger={errors.length > 0} disabled={problems.length === 0} aria-label="配置问题">
              问题
            </Button>
          </Badge>
        </Popover>
        <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={actions.save}>
          保存
        </Button>
        <Button icon={<DownloadOutlined />} onClick={actions.exportLayout}>
          导出容器配置
        </Button>
        <Button icon={<UploadOutlined />} onClick={actions.importLayout}>
          导入容器配置
        </Button>
        <Button icon={panelHidden ? <EyeOutlined /> : <EyeInvisibleOutlined />} onClick={actions.togglePanel}>
          {panelHidden ? '显示配置栏' : '隐藏配置栏'}
        </Button>
        <Select<Zoom>
          aria-label="画布缩放"
          value={zoom}
          style={{ width: 110 }}
          onChange={actions.zoom}
          options={[
            { value: 'fit', label: '适应宽度' },
            { value: 0.25, label: '25%' },
            { value: 0.5, label: '50%' },
            { value: 0.75, label: '75%' },
            { value: 1, label: '100%' },
          ]}
        />
        <Button href={actions.previewUrl} target="_blank" rel="noopener">
          预览
        </Button>
      </Space>
    </div>
  );
});

/** The configuration side bar: one panel, for the canvas, a container or a chart; redrawn only when the selection changes. */
const SideBar = memo(function SideBar({
  kind,
  index,
  i,
  chart,
  actions,
}: {
  kind: 'canvas' | 'item' | 'chart';
  index: number;
  i: string;
  chart: number;
  actions: PanelActions;
}) {
  return (
    <Form layout="vertical" size="small" component="div" className="wg-design-side" onBlurCapture={actions.seal}>
      {kind === 'chart' ? (
        <ChartPanel
          key={`${i}/${chart}`}
          index={index}
          itemId={i}
          chartIndex={chart}
          onBack={actions.selectItem}
          onDelete={actions.deleteChart}
        />
      ) : kind === 'item' ? (
        <ContainerPanel
          key={i}
          index={index}
          i={i}
          onSelectChart={actions.selectChart}
          onAddChart={actions.openGallery}
          onDeleteChart={actions.deleteChart}
          onDelete={actions.deleteContainer}
        />
      ) : (
        <CanvasPanel />
      )}
    </Form>
  );
});
