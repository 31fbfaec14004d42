import { Alert, Button, Form, type FormInstance, Input, Modal, Select, Space, Spin, Switch, TreeSelect } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Access } from '../../../access/access';
import type { ContractList } from '../../../app/data-provider';
import {
  type ListQuery,
  type ListQueryOptions,
  type ListSource,
  listTableProps,
  type RowCrud,
  type RowList,
  type TableList,
  type TablePropsOptions,
  useCrud,
  useListCrud,
} from '../../../engine';
import { setCloseGuard } from '../../../navigation/close-guards';
import { notify } from '../../../notify/notifier';
import { RequestError } from '../../../request';
import { allRoles, type DeptNode, deptTree, type RoleRow } from './api';
import { confirmDeleteText, type FlatNode, MESSAGES, nest, type TreeOf } from './rules';
import './system.css';

/** The system pages' CRUD texts: 新增成功, 修改成功, 删除成功, and 确定删除…吗？ naming what goes. */
const SYSTEM_CRUD = {
  texts: { added: MESSAGES.added, edited: MESSAGES.edited, deleted: MESSAGES.deleted, confirmTitle: MESSAGES.confirmTitle },
};

export type SystemList<T> = { list: RowList<T>; crud: SystemCrud<T> };
export type SystemCrud<T> = RowCrud<T>;

/**
 * A system page's list and its add, edit and delete, on the engine's hooks: `source` paged from 0 by
 * its data provider; the system pages' texts.
 */
export function useSystemList<T, R = ContractList>(source: ListSource<R>, options?: ListQueryOptions): SystemList<T> {
  return useListCrud<T, R>(source, options, SYSTEM_CRUD);
}

/** Add, edit and delete over a list read whole (a tree): `reload` reads it again after each. */
export function useTreeCrud<T, R = ContractList>(source: ListSource<R>, reload: () => void): SystemCrud<T> {
  const list = useMemo(() => ({ reload, deleted: () => reload() }), [reload]);
  return useCrud<T, R>(source, list, SYSTEM_CRUD) as unknown as SystemCrud<T>;
}

/** The 0 of a parent picker: a row at the top level. */
export const TOP = 0;

export interface ParentOption {
  value: number;
  title: string;
  children?: ParentOption[];
}

/** The rows a row may go under: those that hold children, never the row itself nor its own children. */
function parentOptions<T extends FlatNode>(
  nodes: TreeOf<T>[],
  exclude: number | undefined,
  title: (row: T) => string,
  holds: (row: T) => boolean,
): ParentOption[] {
  return nodes
    .filter((n) => holds(n) && n.id !== exclude)
    .map((n) => {
      const children = parentOptions(n.children ?? [], exclude, title, holds);
      return { value: n.id, title: title(n), children: children.length ? children : undefined };
    });
}

const holdsAny = () => true;

/**
 * A tree page (departments, menus): its rows read whole by `load`, their add, edit and delete, the row
 * being edited, the row 新增下级 was opened on, and the parent picker under `top`. `title` and `holds`
 * are module constants.
 */
export function useTreePage<T extends FlatNode, R = ContractList>(options: {
  source: ListSource<R>;
  load: () => Promise<T[]>;
  deps: readonly unknown[];
  top: string;
  title: (row: T) => string;
  holds?: (row: T) => boolean;
}) {
  const { source, load, deps, top, title, holds = holdsAny } = options;
  const list = useRemote(load, deps);
  const crud = useTreeCrud<T, R>(source, list.reload);
  const dialog = crud.dialog;
  const editing = dialog?.mode === 'edit' ? dialog.row : undefined;
  const parentId = dialog?.mode === 'add' ? dialog.row?.id : undefined;
  const fullTree = useMemo(() => nest(list.data ?? []), [list.data]);
  const parents = useMemo(
    () => [{ value: TOP, title: top, children: parentOptions(fullTree, editing?.id, title, holds) }],
    [fullTree, editing?.id, top, title, holds],
  );
  return { list, crud, editing, parentId, parents };
}

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

/** The 企业类别 choices of an account. */
const ACCOUNT_KINDS = [
  { value: '', label: '其他' },
  { value: 'logistics', label: '物流企业（logistics）' },
  { value: 'collectionPoint', label: '收集点（collectionPoint）' },
];

/** The 角色 field of an account: at least one role, picked among every role. */
function RolesField({ roles, placeholder }: { roles: Remote<RoleRow[]>; placeholder?: string }) {
  return (
    <Form.Item name="roleIds" label="角色" required rules={[{ required: true, type: 'array', min: 1, message: MESSAGES.rolesRequired }]}>
      <Select
        mode="multiple"
        placeholder={placeholder}
        loading={roles.loading}
        options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
        optionFilterProp="label"
        aria-label="角色"
      />
    </Form.Item>
  );
}

export interface DeptOption {
  key: number;
  value: number;
  title: string;
  /** The company that owns the department; null for the platform's own. */
  companyId: number | null;
  /** Not to be picked here: a department of another company than the account's. */
  disabled?: boolean;
  children?: DeptOption[];
}

const toDeptOptions = (nodes: DeptNode[]): DeptOption[] =>
  nodes.map((n) => ({
    key: n.id,
    value: n.id,
    title: n.name,
    companyId: n.companyId ?? null,
    children: n.children ? toDeptOptions(n.children) : undefined,
  }));

/**
 * The departments an account of `companyId` may sit in: its company's own (a platform account: the
 * platform's); others stay in the tree, greyed, so the tree keeps its shape. `undefined`: no company chosen yet.
 */
export function deptOptionsFor(options: DeptOption[], companyId: number | null | undefined): DeptOption[] {
  if (companyId === undefined) return options;
  return options.map((o) => ({
    ...o,
    disabled: o.companyId !== companyId,
    children: o.children ? deptOptionsFor(o.children, companyId) : undefined,
  }));
}

/** A department's company among the options, or undefined when it is not among them. */
export function companyOfDept(options: DeptOption[], id: number): number | null | undefined {
  for (const o of options) {
    if (o.value === id) return o.companyId;
    const inner = o.children ? companyOfDept(o.children, id) : undefined;
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The department tree (the enabled departments), and the same as options of a tree or a tree picker. */
export function useDeptTree() {
  const depts = useRemote(deptTree, []);
  const options = useMemo(() => toDeptOptions(depts.data ?? []), [depts.data]);
  return { ...depts, options };
}

/** What an account is placed in: every role, and the department tree. */
export function useAccountChoices() {
  const roles = useRemote(allRoles, []);
  const depts = useDeptTree();
  return { roles, depts };
}

/**
 * An account's 部门, 角色 and 企业类别 fields, with the form's own 岗位 after the department and its
 * 所属企业 after the roles. A company's accounts sit in its own departments: with `company`, only the
 * departments of the chosen 所属企业 can be picked. Without `dept`, the department is not asked (a new
 * company's first account sits in the company's own department).
 */
export function AccountFields({
  choices,
  rolesPlaceholder,
  job,
  company,
  dept = true,
}: {
  choices: ReturnType<typeof useAccountChoices>;
  rolesPlaceholder?: string;
  job?: ReactNode;
  company?: ReactNode;
  dept?: boolean;
}) {
  const form = Form.useFormInstance();
  const companyId = Form.useWatch<number | null | undefined>('companyId', form);
  const options = useMemo(
    () => deptOptionsFor(choices.depts.options, company ? (companyId ?? null) : undefined),
    [choices.depts.options, company, companyId],
  );
  return (
    <>
      {dept && (
        <Form.Item
          name="deptId"
          label="部门"
          dependencies={company ? ['companyId'] : []}
          rules={
            company
              ? [
                  {
                    validator: async (_, value: number | null | undefined) => {
                      if (value === null || value === undefined) return;
                      const owner = companyOfDept(choices.depts.options, value);
                      if (owner !== undefined && owner !== (form.getFieldValue('companyId') ?? null))
                        throw new Error('所选部门不属于该用户的企业');
                    },
                  },
                ]
              : []
          }
        >
          <TreeSelect
            aria-label="部门"
            treeData={options}
            allowClear
            showSearch={{ treeNodeFilterProp: 'title' }}
            treeDefaultExpandAll
            placeholder="选择部门"
            loading={choices.depts.loading}
            notFoundContent={choices.depts.loading ? <Spin size="small" /> : choices.depts.error ? '部门加载失败' : '暂无部门'}
          />
        </Form.Item>
      )}
      {job}
      <RolesField roles={choices.roles} placeholder={rolesPlaceholder} />
      {company}
      <Form.Item name="permission" label="企业类别">
        <Select options={ACCOUNT_KINDS} />
      </Form.Item>
    </>
  );
}

/** A list's filters held together (toolbar, tree, selects): a change searches with all of them, from page 1. */
export function useFilters<F extends Record<string, unknown>>(list: Pick<ListQuery<unknown>, 'search'>, initial: F) {
  const [filters, setFilters] = useState<F>(initial);
  const filterBy = (next: Partial<F>) => {
    const all = { ...filters, ...next };
    setFilters(all);
    list.search(all);
  };
  return [filters, filterBy] as const;
}

/** The delete confirm's text naming what goes: 确定删除{what}吗？ */
export const deleteText = confirmDeleteText;

/** A system table's look and its rows, selection and pager from the list. */
export function systemTableProps<T>(list: TableList<T>, options?: TablePropsOptions) {
  return { ...listTableProps(list, options), ...SYSTEM_TABLE };
}

/** How a system table looks. */
export const SYSTEM_TABLE = { size: 'middle', bordered: true } as const;

/** The text of a failed call: the server's message when it sent one. */
export function errorText(e: unknown): string {
  if (e instanceof RequestError || e instanceof Error) return e.message || '接口请求失败';
  return String(e);
}

export interface Remote<T> {
  data: T | undefined;
  loading: boolean;
  error: string | null;
  reload: () => void;
}

/**
 * Data read from the server for a page: loading, the last answer (kept while a reload runs), and the
 * error of the last failed read. `load` runs again when `deps` change; answers of superseded reads
 * are dropped.
 */
export function useRemote<T>(load: () => Promise<T>, deps: readonly unknown[]): Remote<T> {
  const [data, setData] = useState<T>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's, tick reloads
  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    loadRef
      .current()
      .then((d) => {
        if (mine !== seq.current) return;
        setData(d);
        setError(null);
      })
      .catch((e) => mine === seq.current && setError(errorText(e)))
      .finally(() => mine === seq.current && setLoading(false));
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, loading, error, reload };
}

/** Asks before leaving unsaved work; true when the user agrees to lose it. */
export function confirmUnsaved(what: string): Promise<boolean> {
  return notify.confirm({ title: `${what}尚未保存`, content: '关闭后填写的内容将丢失，确定关闭吗？', okText: '关闭', cancelText: '取消' });
}

export interface FormModalProps<V> {
  title: string;
  open: boolean;
  form: FormInstance<V>;
  /** Values to start from each time the dialog opens. */
  initialValues: Partial<V>;
  width?: number;
  /** Sends the values; a rejection keeps the dialog open with everything typed and shows the message in it. */
  onSubmit: (values: V) => Promise<void>;
  onClose: () => void;
  children: ReactNode;
  okText?: string;
}

/**
 * A dialog form that never loses what was typed: a refused save leaves the dialog open with the
 * values as they were and the server's message above the fields; Enter in a field submits.
 */
export function FormModal<V extends object>({
  title,
  open,
  form,
  initialValues,
  width = 560,
  onSubmit,
  onClose,
  children,
  okText = '确定',
}: FormModalProps<V>) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const initialRef = useRef(initialValues);
  initialRef.current = initialValues;
  const { pathname } = useLocation();
  useEffect(() => {
    if (!open) return;
    setError(null);
    form.resetFields();
    form.setFieldsValue(initialRef.current as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, form]);
  // Closing the page's tab while the dialog holds typed values asks first.
  useEffect(() => {
    if (!open) return;
    return setCloseGuard(pathname, () => !form.isFieldsTouched() || confirmUnsaved(title));
  }, [open, pathname, form, title]);
  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSubmit({ ...(initialRef.current as object), ...values } as V);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      title={title}
      open={open}
      forceRender
      width={width}
      onCancel={onClose}
      maskClosable={false}
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={saving} onClick={submit}>
          {okText}
        </Button>,
      ]}
    >
      {error && <Alert className="sys-form-error" type="error" showIcon title={error} role="alert" />}
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ flex: '96px' }}
        onKeyDown={(e) => {
          const target = e.target as HTMLElement;
          // Enter in a picker's search box picks an option; in any other text box it submits.
          if (e.key === 'Enter' && target.tagName === 'INPUT' && !target.closest('.ant-select') && !saving) {
            e.preventDefault();
            void submit();
          }
        }}
      >
        {children}
      </Form>
    </Modal>
  );
}

/**
 * The add and edit dialog of a system list: 新增{what} or 编辑{what} as the list's CRUD dialog holds it;
 * `save` sends the values, and the CRUD hook says so, closes and reloads.
 */
export function CrudFormModal<V extends object>({
  crud,
  what,
  save,
  ...props
}: Omit<FormModalProps<V>, 'title' | 'open' | 'onSubmit' | 'onClose'> & {
  crud: Pick<SystemCrud<unknown>, 'dialog' | 'close' | 'submitting' | 'saved' | 'refused'>;
  what: string;
  save: (values: V, mode: 'add' | 'edit') => Promise<unknown>;
}) {
  const mode = crud.dialog?.mode === 'edit' ? 'edit' : 'add';
  return (
    <FormModal<V>
      {...props}
      title={`${mode === 'edit' ? '编辑' : '新增'}${what}`}
      open={crud.dialog !== null}
      onClose={crud.close}
      onSubmit={async (values) => {
        crud.submitting(mode);
        try {
          await save(values, mode);
        } catch (e) {
          crud.refused(mode);
          throw e;
        }
        crud.saved(mode);
      }}
    />
  );
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
  { width, prefix, crud, stop }: { width: number; prefix: string; crud: Pick<SystemCrud<T>, 'open'>; stop?: boolean },
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

/**
 * A system page's toolbar: the search box with 搜索 (Enter searches too) and any filters after it,
 * then on the right 新增 for those who may add, and `extra`.
 */
export function SearchToolbar({
  placeholder,
  label,
  width = 220,
  onSearch,
  filters,
  add,
  extra,
}: {
  placeholder: string;
  label: string;
  width?: number;
  onSearch: (text: string) => void;
  filters?: ReactNode;
  add?: { permission: string; onClick: () => void };
  extra?: ReactNode;
}) {
  const [text, setText] = useState('');
  const search = () => onSearch(text.trim());
  return (
    <div className="sys-toolbar">
      <Input
        allowClear
        placeholder={placeholder}
        style={{ width }}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onPressEnter={search}
        aria-label={label}
      />
      {filters}
      <Button type="primary" onClick={search}>
        搜索
      </Button>
      {(add || extra) && <span className="sys-grow" />}
      {add && (
        <Access roles={[add.permission]}>
          <Button type="primary" onClick={add.onClick}>
            新增
          </Button>
        </Access>
      )}
      {extra}
    </div>
  );
}

/** A page's read failure, with a retry, instead of an empty table. */
export function LoadError({ error, retry }: { error: string | null; retry: () => void }) {
  if (!error) return null;
  return (
    <Alert
      className="sys-load-error"
      type="error"
      showIcon
      title={error}
      action={
        <Button size="small" onClick={retry}>
          重试
        </Button>
      }
    />
  );
}

/**
 * Props of a system table whose rows are picked (master and detail): a click, or Enter or Space on
 * the focused row, picks it; the `current` row shows selected.
 */
export function pickableTableProps<T extends { id: number }>(list: TableList<T>, current: T | null, pick: (row: T) => void) {
  const isSelected = (row: T) => row.id === current?.id;
  return {
    ...systemTableProps(list),
    rowClassName: (row: T) => (isSelected(row) ? 'ant-table-row-selected' : ''),
    onRow: pickableRow(pick, isSelected),
  };
}

function pickableRow<T>(pick: (row: T) => void, isSelected: (row: T) => boolean) {
  return (row: T) => ({
    onClick: () => pick(row),
    onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
      if ((e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget) {
        e.preventDefault();
        pick(row);
      }
    },
    tabIndex: 0,
    'aria-selected': isSelected(row),
    style: { cursor: 'pointer' },
  });
}
