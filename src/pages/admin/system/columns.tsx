import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space, Switch, Tag } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { type ReactNode, useRef } from 'react';
import { Access, usePermission } from '../../../access/access';
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

/**
 * A row's links in the 操作 column: the first the user may follow inline, the rest under 更多, so the
 * column stays narrow. The menu takes the focus when it opens (the arrow keys move through it), and
 * Escape closes it and gives the focus back to 更多.
 */
export function RowLinks({ links, stop }: { links: Links; stop?: boolean }) {
  const can = usePermission();
  const moreRef = useRef<HTMLButtonElement>(null);
  const allowed = links.filter((l): l is ActionLink => !!l && (!l.permission || can(l.permission)));
  const [first, ...rest] = allowed;
  if (!first) return null;
  return (
    <Space size={4} onClick={stop ? (e) => e.stopPropagation() : undefined}>
      <Button size="small" type="link" danger={first.danger} onClick={first.onClick}>
        {first.label}
      </Button>
      {rest.length > 0 && (
        <Dropdown
          trigger={['click']}
          autoFocus
          onOpenChange={(open, info) => {
            // Closed by Escape or a click elsewhere (not by a link, whose dialog takes the focus).
            if (
              !open &&
              info.source === 'trigger' &&
              (document.activeElement === document.body || document.activeElement?.closest('.ant-dropdown'))
            )
              moreRef.current?.focus();
          }}
          menu={{
            items: rest.map((l) => ({ key: l.label, label: l.label, danger: l.danger })),
            onClick: ({ key, domEvent }) => {
              if (stop) domEvent.stopPropagation();
              rest.find((l) => l.label === key)?.onClick();
            },
          }}
        >
          <Button ref={moreRef} size="small" type="link" aria-haspopup="menu">
            更多 <DownOutlined />
          </Button>
        </Dropdown>
      )}
    </Space>
  );
}

/**
 * A cell's tags: they wrap onto more lines rather than run into the next cell, and a label longer
 * than the cell ends in an ellipsis, with the whole label as its title.
 */
export function TagList({ tags }: { tags: readonly { key: string | number; label: string; color?: string }[] }): ReactNode {
  return (
    <span className="sys-tags">
      {tags.map((t) => (
        <Tag key={t.key} color={t.color} title={t.label}>
          {t.label}
        </Tag>
      ))}
    </span>
  );
}

/** A row's 编辑, which opens the list's dialog on it, and its 删除, which runs what it is given. */
interface RowLinks {
  edit: ActionLink;
  del: (onClick: () => void) => ActionLink;
}

/**
 * The 操作 column: `links` lists a row's links, given its 编辑 and 删除 behind `{prefix}:edit` and
 * `{prefix}:del`; the first is shown, the rest are under 更多 (RowLinks). `stop` keeps a click on them
 * from picking the row.
 */
function actionsColumn<T>(
  { width, prefix, crud, stop }: { width: number; prefix: string; crud: Pick<RowCrud<T>, 'open'>; stop?: boolean },
  links: (row: T, own: RowLinks) => Links,
): ColumnType<T> {
  const own = (row: T): RowLinks => ({
    edit: { label: '编辑', permission: `${prefix}:edit`, onClick: () => crud.open({ mode: 'edit', row }) },
    del: (onClick) => ({ label: '删除', permission: `${prefix}:del`, danger: true, onClick }),
  });
  return { title: '操作', width, render: (_, row) => <RowLinks stop={stop} links={links(row, own(row))} /> };
}

/** The 操作 column's width: one link and 更多. */
export const ACTIONS_WIDTH = 130;

/** The columns the system tables share: 状态, 创建日期 and 操作. */
export const sysColumns = {
  enabled: enabledColumn,
  created: { title: '创建日期', dataIndex: 'createTime', width: 170 } as const,
  actions: actionsColumn,
};
