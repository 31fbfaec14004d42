import { DownOutlined, LoadingOutlined } from '@ant-design/icons';
import { Dropdown, Modal, theme } from 'antd';
import type { Dayjs } from 'dayjs';
import { type Key, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { ZodType } from 'zod';
import type { ButtonModel, ListPageModel } from '../../model/types';
import { notify } from '../../notify/notifier';
import { download, http } from '../../request';
import { useSession } from '../../session/session-store';
import { ResolvedView } from '../container/resolve-view';
import type { FormMode } from '../contracts';
import { OptionsProvider } from '../options';
import { PERF_MARKS, perfMark } from '../perf-marks';
import { runButton } from './button-actions';
import { ImportDialog } from './import-dialog';
import { ListTable, type Row } from './list-table';
import { ListToolbar } from './list-toolbar';
import {
  buildExportQuery,
  buildListQuery,
  DEFAULT_PAGE_SIZE,
  defaultCreateRange,
  type ListQueryState,
  pageAfterDelete,
  rangeToWire,
  routeFilters,
  type SortState,
  searchValuesToWire,
} from './query';
import { RecordDialog, type RecordDialogState } from './record-dialog';
import {
  abilitiesOf,
  CRUD_IDLE,
  type CrudAction,
  type CrudEvent,
  type CrudStates,
  confirmDeleteText,
  crudTransition,
  MESSAGES,
  rowButtons,
  splitRowActions,
  toolbarButtons,
} from './rules';
import { SearchBar, type SearchSubmit } from './search-bar';

export interface ListPageProps<T> {
  model: ListPageModel;
  schema: ZodType<T>;
  /**
   * Filters the page always applies and every add carries. Omitted on a page route: the route
   * query's values that name fields (a `view` button's foreign key) are used.
   */
  fixedQuery?: Record<string, unknown>;
}

interface PageData {
  rows: Row[];
  total: number;
}

function pageOf(answer: unknown): PageData {
  if (Array.isArray(answer)) return { rows: answer as Row[], total: answer.length };
  if (answer && typeof answer === 'object') {
    const a = answer as { content?: unknown; totalElements?: unknown };
    const rows = Array.isArray(a.content) ? (a.content as Row[]) : [];
    const total = Number(a.totalElements);
    return { rows, total: Number.isFinite(total) ? total : rows.length };
  }
  return { rows: [], total: 0 };
}

interface RowAction {
  key: string;
  label: string;
  danger?: boolean;
  loading?: boolean;
  run: () => void;
}

/**
 * A row's actions: up to four inline, the rest under 更多 (§2.1). Plain buttons (styled in
 * list-table.css), and the 更多 menu is mounted on first use: a 100-row page would otherwise hold
 * hundreds of antd Buttons and a Dropdown per row.
 */
function RowActions({ actions }: { actions: RowAction[] }) {
  const { inline, more } = splitRowActions(actions);
  const [menuOpen, setMenuOpen] = useState<boolean | null>(null);
  const moreButton = (
    <button
      type="button"
      className="engine-row-action"
      aria-haspopup="menu"
      // The first click mounts the menu open; from then on the Dropdown opens and closes it.
      onClick={menuOpen === null ? () => setMenuOpen(true) : undefined}
    >
      更多 <DownOutlined />
    </button>
  );
  return (
    <span className="engine-row-actions">
      {inline.map((a) => (
        <button
          key={a.key}
          type="button"
          className={`engine-row-action${a.danger ? ' danger' : ''}`}
          disabled={a.loading}
          aria-busy={a.loading || undefined}
          onClick={a.run}
          data-action={a.key}
        >
          {a.loading && <LoadingOutlined />}
          {a.label}
        </button>
      ))}
      {more.length > 0 &&
        (menuOpen === null ? (
          moreButton
        ) : (
          <Dropdown
            open={menuOpen}
            onOpenChange={(open) => setMenuOpen(open)}
            trigger={['click']}
            menu={{
              items: more.map((a) => ({ key: a.key, label: a.label, danger: a.danger, disabled: a.loading })),
              onClick: ({ key }) => {
                setMenuOpen(false);
                more.find((a) => a.key === key)?.run();
              },
            }}
          >
            {moreButton}
          </Dropdown>
        ))}
    </span>
  );
}

/**
 * The generic list page (lowcode-engine.md §2.1, §2.7, §4, §6): search bar, CRUD toolbar, table,
 * pager, the add/edit/look dialogs, import, template and custom buttons. A generated page and the
 * runtime renderer both render this with a page model; it decides nothing the model settles.
 */
export function ListPage<T>(props: ListPageProps<T>) {
  const { model } = props;
  const dicts = useMemo(
    () => [...model.columns.map((c) => c.dict), ...model.form.fields.map((f) => f.dict)].filter((d): d is string => !!d),
    [model],
  );
  // The page's first commit (bench/page-mount.bench.ts measures generated and runtime pages by it).
  useLayoutEffect(() => perfMark(PERF_MARKS.pageMounted), []);
  return (
    <OptionsProvider dicts={dicts}>
      <ListPageBody model={model} schema={props.schema as ZodType} fixedQuery={props.fixedQuery} />
    </OptionsProvider>
  );
}

function ListPageBody({ model, schema, fixedQuery }: { model: ListPageModel; schema: ZodType; fixedQuery?: Record<string, unknown> }) {
  const { roles } = useSession();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const can = useMemo(() => abilitiesOf(model, roles), [model, roles]);
  const keyField = model.form.dialog.key;

  const fieldNames = useMemo(() => new Set([...model.columns.map((c) => c.name), ...model.form.fields.map((f) => f.name)]), [model]);
  const routeFixedKey = JSON.stringify(fixedQuery ?? routeFilters(new URLSearchParams(location.search), fieldNames));
  const fixed = useMemo(() => JSON.parse(routeFixedKey) as Record<string, unknown>, [routeFixedKey]);

  const [initialRange] = useState<[Dayjs, Dayjs]>(() => defaultCreateRange());
  const [query, setQuery] = useState<ListQueryState>(() => ({
    page: 1,
    size: DEFAULT_PAGE_SIZE,
    sort: null,
    range: rangeToWire(initialRange),
    values: {},
  }));
  const [data, setData] = useState<PageData>({ rows: [], total: 0 });
  // Set when a list answer goes into state, so the commit showing it can be marked (bench/list-render.bench.ts).
  const answered = useRef(false);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  const [selected, setSelected] = useState<{ keys: Key[]; rows: Row[] }>({ keys: [], rows: [] });
  const [visible, setVisible] = useState<Set<string>>(() => {
    const shown = model.columns.filter((c) => c.visible).map((c) => c.name);
    return new Set(shown.length ? shown : model.columns.map((c) => c.name));
  });
  const [searchShown, setSearchShown] = useState(true);
  const [advanced, setAdvanced] = useState(false);
  const [dialog, setDialog] = useState<RecordDialogState | null>(null);
  const [importing, setImporting] = useState(false);
  const [viewDialog, setViewDialog] = useState<{ button: ButtonModel; row?: Row } | null>(null);
  const [crud, setCrud] = useState<CrudStates>(CRUD_IDLE);
  const [busy, setBusy] = useState<{ export: boolean; del: boolean; buttons: Set<string> }>({
    export: false,
    del: false,
    buttons: new Set(),
  });

  const step = useCallback((action: CrudAction, event: CrudEvent) => setCrud((s) => crudTransition(s, action, event)), []);

  // tick: a refresh asks for the same query again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick is the refresh signal
  useEffect(() => {
    let live = true;
    setLoading(true);
    http
      .get(model.api.list, buildListQuery({ ...query, fixed }, model.defaultSort))
      .then((answer) => {
        if (!live) return;
        perfMark(PERF_MARKS.listData);
        answered.current = true;
        setData(pageOf(answer));
        setSelected({ keys: [], rows: [] });
      })
      .catch(() => {
        // §8: a failed list only stops the loading indicator (the request layer reported it).
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [model, query, fixed, tick]);

  // After the commit that put the answer's rows into the table's DOM (before the browser paints it).
  // biome-ignore lint/correctness/useExhaustiveDependencies: data is the commit to mark
  useLayoutEffect(() => {
    if (!answered.current) return;
    answered.current = false;
    perfMark(PERF_MARKS.listRendered);
  }, [data]);

  // Stable, so the (memoised) search bar is not drawn again when a list answer arrives.
  const onSearch = useCallback(
    ({ values, range }: SearchSubmit) =>
      setQuery((q) => ({ ...q, page: 1, values: searchValuesToWire(model.columns, values), range: rangeToWire(range) })),
    [model],
  );

  const tableColumns = useMemo(() => model.columns.filter((c) => visible.has(c.name)), [model, visible]);
  const searchColumns = useMemo(() => (advanced ? model.columns : model.columns.filter((c) => c.search)), [model, advanced]);

  const openDialog = (state: RecordDialogState) => {
    if (state.mode !== 'look') step(state.mode, 'prepare');
    setDialog(state);
  };

  const closeDialog = () => {
    if (dialog && dialog.mode !== 'look') step(dialog.mode, 'cancel');
    setDialog(null);
  };

  const submitRecord = async (mode: FormMode, payload: Record<string, unknown>) => {
    if (mode === 'look') return;
    const url = model.api.submit || (mode === 'add' ? model.api.add : model.api.edit);
    try {
      await http.post(url, payload);
    } catch (e) {
      step(mode, 'failure');
      throw e;
    }
    step(mode, 'success');
    notify.success(model.api.submit ? MESSAGES.submitted : mode === 'add' ? MESSAGES.added : MESSAGES.edited);
    setDialog(null);
    reload();
  };

  const remove = async (rows: Row[]) => {
    const ids = rows.map((r) => r[keyField]).filter((v) => v !== undefined && v !== null);
    if (!ids.length) return;
    step('del', 'prepare');
    if (!(await notify.confirm({ title: MESSAGES.confirmTitle, content: confirmDeleteText(ids.length) }))) {
      step('del', 'cancel');
      return;
    }
    step('del', 'start');
    setBusy((b) => ({ ...b, del: true }));
    try {
      await http.post(model.api.del, ids);
      step('del', 'success');
      notify.success(MESSAGES.deleted);
      setQuery((q) => ({ ...q, page: pageAfterDelete({ page: q.page, size: q.size, total: data.total, deleted: ids.length }) }));
      reload();
    } catch {
      step('del', 'failure');
      step('del', 'cancel');
    } finally {
      setBusy((b) => ({ ...b, del: false }));
    }
  };

  const exportRows = async () => {
    setBusy((b) => ({ ...b, export: true }));
    try {
      await download(model.api.export, buildExportQuery({ ...query, fixed }, model.defaultSort, tableColumns), `${model.title}.xlsx`);
    } finally {
      setBusy((b) => ({ ...b, export: false }));
    }
  };

  const runCustom = async (button: ButtonModel, rows: Row[], busyKey: string) => {
    setBusy((b) => ({ ...b, buttons: new Set(b.buttons).add(busyKey) }));
    try {
      await runButton(button, rows, {
        model,
        http,
        download,
        notify,
        navigate: (to) => navigate(to),
        openWindow: (url) => window.open(url, '_blank', 'noopener'),
        search: location.search,
        reload,
        openView: (b, row) => setViewDialog({ button: b, row }),
      });
    } finally {
      setBusy((b) => {
        const buttons = new Set(b.buttons);
        buttons.delete(busyKey);
        return { ...b, buttons };
      });
    }
  };

  // The row actions call the latest handlers (they close over this render's state); the operation
  // column's renderer itself changes only with what decides the actions, so rows are not redrawn
  // on every render of the page.
  const handlers = useRef({ openDialog, remove, runCustom });
  handlers.current = { openDialog, remove, runCustom };
  const busyButtons = busy.buttons;
  const renderActions = useCallback(
    (row: Row) => {
      const id = String(row[keyField] ?? '');
      const actions: RowAction[] = [];
      if (can.look) actions.push({ key: 'look', label: '查看', run: () => handlers.current.openDialog({ mode: 'look', row }) });
      if (can.edit) actions.push({ key: 'edit', label: '编辑', run: () => handlers.current.openDialog({ mode: 'edit', row }) });
      if (can.del) actions.push({ key: 'del', label: '删除', danger: true, run: () => void handlers.current.remove([row]) });
      for (const b of rowButtons(model.buttons, roles, row)) {
        const busyKey = `${b.name}:${id}`;
        actions.push({
          key: `btn:${b.name}`,
          label: b.label,
          loading: busyButtons.has(busyKey),
          run: () => void handlers.current.runCustom(b, [row], busyKey),
        });
      }
      return <RowActions actions={actions} />;
    },
    [can, keyField, model, roles, busyButtons],
  );

  const hasRowActions = can.look || can.edit || can.del || model.buttons.some((b) => b.position === 'row');
  const operation = useMemo(
    () => (model.features.operation && hasRowActions ? { width: model.operationWidth, render: renderActions } : undefined),
    [model, hasRowActions, renderActions],
  );

  const toolButtons = useMemo(() => toolbarButtons(model.buttons, roles), [model, roles]);

  return (
    <div
      className="engine-list-page"
      data-view-id={model.viewId}
      data-crud-add={crud.add}
      data-crud-edit={crud.edit}
      data-crud-del={crud.del}
      data-loading={loading ? 'true' : 'false'}
      style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, padding: token.padding }}
    >
      {/* Hidden, not unmounted: what the user typed stays with the query it made. */}
      <div hidden={!searchShown}>
        <SearchBar columns={searchColumns} showAll={advanced} initialRange={initialRange} onSearch={onSearch} onReset={onSearch} />
      </div>
      <ListToolbar
        can={can}
        selected={selected.keys.length}
        buttons={toolButtons}
        busy={busy}
        advanced={advanced}
        searchShown={searchShown}
        columns={model.columns}
        visible={visible}
        onColumns={setVisible}
        onAdd={() => openDialog({ mode: 'add' })}
        onEdit={() => selected.rows[0] && openDialog({ mode: 'edit', row: selected.rows[0] })}
        onDelete={() => void remove(selected.rows)}
        onExport={() => void exportRows()}
        onImport={() => setImporting(true)}
        onTemplate={() => void download(model.api.template, undefined, `${model.title}导入模板.xlsx`)}
        onAdvanced={() => {
          setAdvanced((a) => !a);
          setSearchShown(true);
        }}
        onToggleSearch={() => setSearchShown((s) => !s)}
        onRefresh={reload}
        onButton={(b) => void runCustom(b, selected.rows, b.name)}
      />
      <ListTable
        columns={tableColumns}
        rows={data.rows}
        rowKey={keyField}
        loading={loading}
        page={query.page}
        size={query.size}
        total={data.total}
        sort={query.sort}
        defaultSort={model.defaultSort}
        index={model.features.index}
        selectable
        selectedKeys={selected.keys}
        onSelect={(keys, rows) => setSelected({ keys, rows })}
        onChange={({ page, size, sort }: { page: number; size: number; sort: SortState | null }) =>
          setQuery((q) => ({ ...q, page, size, sort }))
        }
        operation={operation}
      />
      {dialog && (
        <RecordDialog
          key={`${dialog.mode}:${String(dialog.row?.[keyField] ?? '')}`}
          model={model}
          schema={schema}
          state={dialog}
          fixedValues={Object.keys(fixed).length ? fixed : undefined}
          onClose={closeDialog}
          onSubmitting={() => dialog.mode !== 'look' && step(dialog.mode, 'start')}
          onSubmit={submitRecord}
        />
      )}
      {importing && (
        <ImportDialog
          url={model.api.import}
          templateUrl={can.template ? model.api.template : undefined}
          title={model.title}
          onClose={() => setImporting(false)}
          onImported={reload}
        />
      )}
      {viewDialog && (
        <Modal open title={viewDialog.button.label} width="80%" footer={null} onCancel={() => setViewDialog(null)} destroyOnHidden>
          {viewDialog.button.view === undefined ? null : (
            <ResolvedView
              viewId={viewDialog.button.view}
              fixedQuery={
                viewDialog.button.foreignKey && viewDialog.row?.[keyField] !== undefined
                  ? { [viewDialog.button.foreignKey]: viewDialog.row[keyField] }
                  : {}
              }
            />
          )}
        </Modal>
      )}
    </div>
  );
}
