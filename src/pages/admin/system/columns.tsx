import { Button, Space, Switch } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { Access } from '../../../access/access';
import type { RowCrud } from '../../../engine';
import { notify } from '../../../notify/notifier';

/** How a system table looks (after the engine's table props). */
export const SYSTEM_TABLE = { size: 'middle', bordered: true } as const;

/** 启用 / 禁用, for a 状态 radio. */
export const ENABLED_CHOICES = [
  { value: true, label: '启用' },
  { value: false, label: '禁用' },
];

/** 是 / 否, for a yes-no radio. */
export const YES_NO = [
  { value: true, label: '是' },
  { value: false, label: '否' },
];

/**
 * The 状态 column: a switch that enables or disables the row (off when `disabled`), says so, and reads
 * the list again either way (a refusal was shown by the request client).
 */
function enabledColumn<T extends { enabled: boolean }>(options: {
  width: number;
  disabled: boolean;
  name: (row: T) => string;
  set: (row: T, on: boolean) => Promise<unknown>;
  reload: () => void;
}) {
  const toggle = async (row: T, on: boolean) => {
    try {
      await options.set(row, on);
      notify.success(on ? '已启用' : '已禁用');
    } catch {
      // The request client has shown the server's message.
    }
    options.reload();
  };
  return {
    title: '状态',
    dataIndex: 'enabled',
    width: options.width,
    render: (_: unknown, r: T) => (
      <Switch
        size="small"
        checked={r.enabled}
        disabled={options.disabled}
        aria-label={`${options.name(r)}${r.enabled ? '已启用' : '已禁用'}`}
        onChange={(on) => toggle(r, on)}
      />
    ),
  };
}

/** A row's or a toolbar's link buttons, each shown to those holding its permission. */
export interface ActionLink {
  label: string;
  permission?: string;
  danger?: boolean;
  onClick: () => void;
}

export function ActionLinks({ links, stop }: { links: Links; stop?: boolean }) {
  return (
    <Space size={4} onClick={stop ? (e) => e.stopPropagation() : undefined}>
      {links.map((l) => {
        if (!l) return null;
        const button = (
          <Button key={l.label} size="small" type="link" danger={l.danger} onClick={l.onClick}>
            {l.label}
          </Button>
        );
        return l.permission ? (
          <Access key={l.label} roles={[l.permission]}>
            {button}
          </Access>
        ) : (
          <span key={l.label}>{button}</span>
        );
      })}
    </Space>
  );
}

type Links = readonly (ActionLink | false | null | undefined)[];

/** A row's 编辑, which opens the list's dialog on it, and its 删除, which runs what it is given. */
interface RowLinks {
  edit: ActionLink;
  del: (onClick: () => void) => ActionLink;
}

/**
 * The 操作 column: `links` lists a row's links, given its 编辑 and 删除 behind `{prefix}:edit` and
 * `{prefix}:del`; `stop` keeps a click on them from picking the row.
 */
function actionsColumn<T>(
  { width, prefix, crud, stop }: { width: number; prefix: string; crud: Pick<RowCrud<T>, 'open'>; stop?: boolean },
  links: (row: T, own: RowLinks) => Links,
): ColumnType<T> {
  const own = (row: T): RowLinks => ({
    edit: { label: '编辑', permission: `${prefix}:edit`, onClick: () => crud.open({ mode: 'edit', row }) },
    del: (onClick) => ({ label: '删除', permission: `${prefix}:del`, danger: true, onClick }),
  });
  return { title: '操作', width, render: (_, row) => <ActionLinks stop={stop} links={links(row, own(row))} /> };
}

/** The columns the system tables share: 状态, 创建日期 and 操作. */
export const sysColumns = {
  enabled: enabledColumn,
  created: { title: '创建日期', dataIndex: 'createTime', width: 170 } as const,
  actions: actionsColumn,
};
