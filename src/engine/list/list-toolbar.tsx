import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FileExcelOutlined,
  FilterOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
  SettingOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Popover, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import type { ButtonModel, ColumnModel } from '../../model';
import { useEngineServices } from '../services';
import { type ListAbilities, MESSAGES, toolbarButtonState } from './rules';

/** Column chooser: the user may hide columns, never the last visible one. */
export function ColumnChooser({
  columns,
  visible,
  onChange,
}: {
  columns: readonly ColumnModel[];
  visible: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
}) {
  const { notify } = useEngineServices();
  const content = (
    <div className="engine-column-chooser" style={{ display: 'flex', flexDirection: 'column', gap: 6, maxHeight: 360, overflowY: 'auto' }}>
      {columns.map((c) => (
        <Checkbox
          key={c.name}
          checked={visible.has(c.name)}
          onChange={(e) => {
            const next = new Set(visible);
            if (e.target.checked) next.add(c.name);
            else next.delete(c.name);
            if (next.size === 0) {
              notify.warning(MESSAGES.keepOneColumn);
              return;
            }
            onChange(next);
          }}
        >
          {c.label}
        </Checkbox>
      ))}
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title="列设置" content={content}>
      <Tooltip title="列设置">
        <Button icon={<SettingOutlined />} aria-label="列设置" />
      </Tooltip>
    </Popover>
  );
}

export interface ToolbarProps {
  can: ListAbilities;
  selected: number;
  buttons: readonly ButtonModel[];
  busy: { export: boolean; del: boolean; buttons: ReadonlySet<string> };
  advanced: boolean;
  searchShown: boolean;
  columns: readonly ColumnModel[];
  visible: ReadonlySet<string>;
  onColumns: (next: Set<string>) => void;
  onAdd: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onExport: () => void;
  onImport: () => void;
  onTemplate: () => void;
  onAdvanced: () => void;
  onToggleSearch: () => void;
  onRefresh: () => void;
  onButton: (b: ButtonModel) => void;
  /** The app's own toolbar content (EngineExtensions.listToolbar), after the custom buttons. */
  extra?: ReactNode;
}

function Tip({ title, children }: { title?: string; children: ReactNode }) {
  return title ? <Tooltip title={title}>{children}</Tooltip> : children;
}

/**
 * The CRUD toolbar: add, edit (one row), delete (the selection), export,
 * import, template, the custom toolbar buttons, advanced query; on the right the search toggle,
 * refresh and the column chooser.
 */
export function ListToolbar(p: ToolbarProps) {
  return (
    <div
      className="engine-list-toolbar"
      style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}
    >
      <Space wrap>
        {p.can.add && (
          <Button type="primary" icon={<PlusOutlined />} onClick={p.onAdd}>
            新增
          </Button>
        )}
        {p.can.edit && (
          <Button icon={<EditOutlined />} disabled={p.selected !== 1} onClick={p.onEdit}>
            修改
          </Button>
        )}
        {p.can.del && (
          <Button danger icon={<DeleteOutlined />} disabled={p.selected === 0} loading={p.busy.del} onClick={p.onDelete}>
            删除
          </Button>
        )}
        {p.can.export && (
          <Button icon={<DownloadOutlined />} loading={p.busy.export} onClick={p.onExport}>
            导出
          </Button>
        )}
        {p.can.import && (
          <Button icon={<UploadOutlined />} onClick={p.onImport}>
            导入
          </Button>
        )}
        {p.can.template && (
          <Button icon={<FileExcelOutlined />} onClick={p.onTemplate}>
            下载模板
          </Button>
        )}
        {p.buttons.map((b) => {
          const state = toolbarButtonState(b, p.selected);
          return (
            <Tip key={b.name} title={state.reason}>
              <Button disabled={!state.enabled} loading={p.busy.buttons.has(b.name)} onClick={() => p.onButton(b)} data-button={b.name}>
                {b.label}
              </Button>
            </Tip>
          );
        })}
        {p.extra}
        {p.can.pre && (
          <Button
            icon={<FilterOutlined />}
            type={p.advanced ? 'primary' : 'default'}
            ghost={p.advanced}
            onClick={p.onAdvanced}
            aria-pressed={p.advanced}
          >
            高级查询
          </Button>
        )}
      </Space>
      <Space>
        <Tooltip title={p.searchShown ? '隐藏搜索' : '显示搜索'}>
          <Button
            icon={<SearchOutlined />}
            aria-label={p.searchShown ? '隐藏搜索' : '显示搜索'}
            aria-pressed={p.searchShown}
            onClick={p.onToggleSearch}
          />
        </Tooltip>
        <Tooltip title="刷新">
          <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={p.onRefresh} />
        </Tooltip>
        <ColumnChooser columns={p.columns} visible={p.visible} onChange={p.onColumns} />
      </Space>
    </div>
  );
}
