import { DownOutlined, LoadingOutlined } from '@ant-design/icons';
import { Alert, Button, Dropdown, Modal, Space, theme } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ZodType } from 'zod';
import { type ButtonModel, defaultRangeDays, hasCreateRange, type ListPageModel, trimPath } from '../../model';
import type { FormValues } from '../form/payload';
import { crudDialogStatus, useCrud, viewCrudOptions } from '../hooks/use-crud';
import { useListQuery, useViewSource } from '../hooks/use-list-query';
import { OptionsProvider } from '../options';
import { PERF_MARKS, perfMark } from '../perf-marks';
import { LinkedRecordDialog, ResolvedView } from '../runtime/resolved-page';
import { type RecordRow, useEngineServices, usePageNavigation } from '../services';
import { runButton } from './button-actions';
import { displayOrder, initialVisible, refreshVisible } from './columns';
import { ImportDialog } from './import-dialog';
import { ListTable, OPERATION_WIDTH } from './list-table';
import { ListToolbar } from './list-toolbar';
import {
  defaultCreateRange,
  routeFilters,
  routeRecords,
  type SearchState,
  searchFromAddress,
  searchKeyOf,
  searchToAddress,
  searchValuesToWire,
} from './query';
import { RecordDialog } from './record-dialog';
import { abilitiesOf, type ListAbilities, opensOnly, RECORD_PARAM, rowButtons, splitRowActions, toolbarButtons } from './rules';
import { SearchBar, type SearchSubmit } from './search-bar';

export interface ListPageProps<T extends FormValues> {
  model: ListPageModel;
  /** The form's schema: the generated module's (its record type is `T`), or buildSchema at run time. */
  schema: ZodType<T>;
  /**
   * Filters the page always applies, given by a relation dialog of another view (its foreign key): the
   * list is then read-only. Omitted on a page route: the route query's values that name fields (a
   * `view` button's foreign key) are used, and its `id` (a relation's linked record) shows that record
   * alone, read-only.
   */
  fixedQuery?: Record<string, unknown>;
}

/**
 * Whether a list page keeps its search in the page's address: true for the page a route shows; false
 * where several lists share one address (a container's tabs) or the list is part of another page (a
 * dialog, the designer's preview).
 */
const SearchInAddress = createContext(true);

/** Lists under it keep their search to themselves instead of the page's address. */
export function ListSearchNotInAddress({ children }: { children?: ReactNode }) {
  return <SearchInAddress.Provider value={false}>{children}</SearchInAddress.Provider>;
}

/** A read-only list offers looking, exporting and the buttons that only open something; no writes. */
function readOnlyAbilities(a: ListAbilities): ListAbilities {
  return { ...a, add: false, edit: false, del: false, import: false, template: false };
}

interface RowAction {
  key: string;
  label: string;
  danger?: boolean;
  loading?: boolean;
  run: () => void;
}

/**
 * A row's actions: the first (查看) inline, the rest under 更多. Plain buttons (styled in
 * list-table.css), and the 更多 menu is mounted on first use: a 100-row page would otherwise hold
 * hundreds of antd Buttons and a Dropdown per row. The menu takes the focus when it opens (the arrow
 * keys move through it), and Escape closes it and gives the focus back to 更多.
 */
function RowActions({ actions }: { actions: RowAction[] }) {
  const { inline, more } = splitRowActions(actions);
  const [menuOpen, setMenuOpen] = useState<boolean | null>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  const moreButton = (
    <button
      ref={moreRef}
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
            onOpenChange={(open, info) => {
              setMenuOpen(open);
              // Closed by Escape or a click elsewhere (not by an action, whose dialog takes the focus): the
              // focus goes back to 更多 unless it went somewhere.
              if (
                !open &&
                info.source === 'trigger' &&
                (document.activeElement === document.body || document.activeElement?.closest('.ant-dropdown'))
              )
                moreRef.current?.focus();
            }}
            trigger={['click']}
            autoFocus
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
 * The generic list page: search bar, CRUD toolbar, table, pager, the add/edit/look dialogs, import,
 * template and custom buttons. A generated page and the runtime renderer both render it with a page
 * model; it decides nothing the model settles. The query and its answer live in useListQuery, the
 * add/edit/delete in useCrud: this lays them out.
 */
export function ListPage<T extends FormValues>(props: ListPageProps<T>) {
  const { model } = props;
  const dicts = useMemo(
    () => [...model.columns.map((c) => c.dict), ...model.form.fields.map((f) => f.dict)].filter((d): d is string => !!d),
    [model],
  );
  // The page's first commit (the page-mount benchmark measures generated and runtime pages by it).
  useLayoutEffect(() => perfMark(PERF_MARKS.pageMounted), []);
  return (
    <OptionsProvider dicts={dicts}>
      <ListPageBody model={model} schema={props.schema} fixedQuery={props.fixedQuery} />
    </OptionsProvider>
  );
}

function ListPageBody<T extends FormValues>({ model, schema, fixedQuery }: ListPageProps<T>) {
  const { can, data, download, notify, extensions } = useEngineServices();
  const { token } = theme.useToken();
  const { search: locationSearch, navigate, pathname } = usePageNavigation();
  const keyField = model.form.dialog.key;

  const fieldNames = useMemo(() => new Set([...model.columns.map((c) => c.name), ...model.form.fields.map((f) => f.name)]), [model]);
  // The search lives in the address of the page a route shows (a dialog's list has its fixed filters instead).
  const inAddress = useContext(SearchInAddress) && fixedQuery === undefined;
  // A view that declares a startTime or endTime field filters it with that parameter: it has no createTime range.
  const createRange = hasCreateRange(fieldNames);
  const searchable = useMemo(() => model.columns.filter((c) => c.search), [model]);
  const searchNames = useMemo(() => new Set(searchable.map((c) => c.name)), [searchable]);
  // A relation's linked record, named by the address: the list shows it alone (the server scopes the filter).
  const record = fixedQuery ? undefined : routeRecords(new URLSearchParams(locationSearch), RECORD_PARAM);
  const fixedKey = JSON.stringify(
    fixedQuery ?? {
      ...routeFilters(new URLSearchParams(locationSearch), fieldNames, searchNames),
      ...(record ? { [RECORD_PARAM]: record } : {}),
    },
  );
  const fixed = useMemo(() => JSON.parse(fixedKey) as Record<string, unknown>, [fixedKey]);
  // What a relation opens is read-only: a view in another's dialog, or a list narrowed to a linked record.
  const readOnly = fixedQuery !== undefined || record !== undefined;
  const abilities = useMemo(() => {
    const a = abilitiesOf(model, can);
    return readOnly ? readOnlyAbilities(a) : a;
  }, [model, can, readOnly]);
  const buttons = useMemo(() => (readOnly ? model.buttons.filter(opensOnly) : model.buttons), [model, readOnly]);
  // What an add carries: the fields the list is filtered by, never the record filter.
  const carried = useMemo(() => {
    const { [RECORD_PARAM]: _record, ...rest } = fixed;
    return Object.keys(rest).length ? rest : undefined;
  }, [fixed]);

  /** The search the address carries, else the list's default: its range where it has one, nothing else. */
  // What a relation opens is shown whenever it was created: it has no default range.
  const rangeDays = record !== undefined ? null : defaultRangeDays(model.columns, fieldNames);
  const searchOf = useCallback(
    (address: string): { state: SearchState; carried: boolean } => {
      const carried = inAddress ? searchFromAddress(new URLSearchParams(address), searchable, createRange) : null;
      return carried
        ? { state: carried, carried: true }
        : { state: { values: {}, range: rangeDays === null ? null : defaultCreateRange(undefined, rangeDays) }, carried: false };
    },
    [inAddress, searchable, createRange, rangeDays],
  );
  const [opened, setOpened] = useState(() => ({ ...searchOf(locationSearch), round: 0 }));
  const source = useViewSource(model);
  const { resource } = source;
  const initialValues = useMemo(() => searchValuesToWire(model.columns, opened.state.values), [model, opened.state.values]);
  const list = useListQuery<T>(source, {
    columns: model.columns,
    defaultSort: model.defaultSort,
    fixed,
    initialRange: opened.state.range,
    values: initialValues,
  });
  const crudOptions = useMemo(() => viewCrudOptions(model), [model]);
  const crud = useCrud<T>(source, list, crudOptions);

  const [visible, setVisible] = useState<Set<string>>(() => initialVisible(model.columns));
  // The column settings refresh with the table's columns (a definition drawn again while the page is open).
  const [columnsSeen, setColumnsSeen] = useState(model.columns);
  if (columnsSeen !== model.columns) {
    setColumnsSeen(model.columns);
    setVisible((v) => refreshVisible(model.columns, v, new Set(columnsSeen.map((c) => c.name))));
  }
  const [searchShown, setSearchShown] = useState(true);
  const [advanced, setAdvanced] = useState(false);
  const [importing, setImporting] = useState(false);
  const [viewDialog, setViewDialog] = useState<{ button: ButtonModel; row?: RecordRow<T>; linked?: string } | null>(null);
  const [exporting, setExporting] = useState(false);
  const [busyButtons, setBusyButtons] = useState<ReadonlySet<string>>(() => new Set());

  // Stable, so the (memoised) search bar is not drawn again when a list answer arrives.
  const { search } = list;
  const resetRange = useMemo(() => (rangeDays === null ? null : defaultCreateRange(undefined, rangeDays)), [rangeDays]);
  const address = useRef({ search: locationSearch, pathname });
  address.current = { search: locationSearch, pathname };
  const addressKey = searchKeyOf(new URLSearchParams(locationSearch), searchable, createRange);
  // The search this page last wrote to its address (or opened with): another one is a new opening.
  const known = useRef(addressKey);
  /** Writes a search into the page's address, in place of the entry shown (back leaves the page, not a search). */
  const writeAddress = useCallback(
    (state: SearchState) => {
      // A page kept in a hidden tab (or left before it drew) never takes over the address of the page shown.
      const shown = typeof window === 'undefined' || trimPath(window.location.pathname) === trimPath(address.current.pathname);
      if (!inAddress || !shown) return;
      const next = searchToAddress(new URLSearchParams(address.current.search), searchable, state, {
        createRange,
        hasDefault: rangeDays !== null,
      });
      known.current = searchKeyOf(next, searchable, createRange);
      const qs = next.toString();
      navigate(`${address.current.pathname}${qs ? `?${qs}` : ''}`, { replace: true });
    },
    [inAddress, searchable, createRange, rangeDays, navigate],
  );
  // The search the list shows now, as the bar holds it.
  const current = useRef(opened.state);
  const onSearch = useCallback(
    (s: SearchSubmit) => {
      current.current = s;
      search(s.values, s.range);
      writeAddress(s);
    },
    [search, writeAddress],
  );
  // A list opened bare starts with its default range, and its address says so.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the search the page opened with
  useEffect(() => {
    if (!opened.carried && opened.state.range) writeAddress(opened.state);
  }, []);
  // The address changed from elsewhere. With a search (a dashboard tile opening this page again): start
  // that search. Bare (the menu entry of a page kept open): the list keeps its search, and says so.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the search's part of the address
  useEffect(() => {
    if (!inAddress || addressKey === known.current) return;
    known.current = addressKey;
    const next = searchOf(address.current.search);
    if (!next.carried) {
      writeAddress(current.current);
      return;
    }
    current.current = next.state;
    setOpened((o) => ({ ...next, round: o.round + 1 }));
    search(next.state.values, next.state.range);
  }, [addressKey]);

  // Exported in the definition's order (the import template's); drawn with the key columns first.
  const tableColumns = useMemo(() => model.columns.filter((c) => visible.has(c.name)), [model, visible]);
  const shownColumns = useMemo(() => displayOrder(tableColumns), [tableColumns]);
  const searchColumns = useMemo(() => (advanced ? model.columns : model.columns.filter((c) => c.search)), [model, advanced]);

  const exportRows = async () => {
    setExporting(true);
    try {
      await data.export({ resource, query: list.exportQuery(tableColumns), fileName: `${model.title}.xlsx` });
    } finally {
      setExporting(false);
    }
  };

  const runCustom = async (button: ButtonModel, rows: RecordRow<T>[], busyKey: string) => {
    setBusyButtons((b) => new Set(b).add(busyKey));
    try {
      await runButton(button, rows, {
        model,
        data,
        download,
        notify,
        navigate,
        openWindow: (url) => window.open(url, '_blank', 'noopener'),
        search: locationSearch,
        reload: list.reload,
        openView: (b, row, linked) => setViewDialog({ button: b, row, linked }),
      });
    } finally {
      setBusyButtons((b) => {
        const next = new Set(b);
        next.delete(busyKey);
        return next;
      });
    }
  };

  // The row actions call the latest handlers (they close over this render's state); the operation
  // column's renderer itself changes only with what decides the actions, so rows are not redrawn
  // on every render of the page.
  const handlers = useRef({ open: crud.open, remove: crud.remove, runCustom });
  handlers.current = { open: crud.open, remove: crud.remove, runCustom };
  const renderActions = useCallback(
    (row: RecordRow<T>) => {
      const id = String(row[keyField] ?? '');
      const actions: RowAction[] = [];
      if (abilities.look) actions.push({ key: 'look', label: '查看', run: () => handlers.current.open({ mode: 'look', row }) });
      if (abilities.edit) actions.push({ key: 'edit', label: '编辑', run: () => handlers.current.open({ mode: 'edit', row }) });
      if (abilities.del) actions.push({ key: 'del', label: '删除', danger: true, run: () => void handlers.current.remove([row]) });
      for (const b of rowButtons(buttons, can, row)) {
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
    [abilities, keyField, buttons, can, busyButtons],
  );

  const hasRowActions = abilities.look || abilities.edit || abilities.del || buttons.some((b) => b.position === 'row');
  const operation = useMemo(
    // Always wide enough for 查看 and 更多 (a definition's operationWidth was sized for a row of buttons).
    () => (model.features.operation && hasRowActions ? { width: OPERATION_WIDTH, render: renderActions } : undefined),
    [model, hasRowActions, renderActions],
  );

  const toolButtons = useMemo(() => toolbarButtons(buttons, can), [buttons, can]);
  const busy = useMemo(() => ({ export: exporting, del: crud.deleting, buttons: busyButtons }), [exporting, crud.deleting, busyButtons]);
  const dialog = crud.dialog;
  const selected = list.selected;
  const toolbarExtra = readOnly
    ? null
    : extensions?.listToolbar?.({
        pathname,
        viewId: model.viewId,
        componentName: model.componentName,
        reload: list.reload,
      });

  return (
    <div
      className="engine-list-page"
      data-view-id={model.viewId}
      data-crud-add={crud.states.add}
      data-crud-edit={crud.states.edit}
      data-crud-del={crud.states.del}
      data-crud-look={crud.states.look}
      data-crud-dialog={crudDialogStatus(crud.states)}
      data-loading={list.loading ? 'true' : 'false'}
      style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, padding: token.padding }}
    >
      {record !== undefined && (
        <Alert
          className="engine-record-filter"
          type={!list.loading && list.total === 0 ? 'warning' : 'info'}
          showIcon
          style={{ marginBottom: token.marginSM }}
          title={
            !list.loading && list.total === 0
              ? '未找到关联的记录：它不存在，或您无权查看'
              : `仅显示关联的记录（${record.split(',').length} 条），只读`
          }
          action={
            <Space>
              <Button size="small" onClick={() => window.history.back()}>
                返回
              </Button>
              <Button size="small" type="primary" onClick={() => navigate(pathname)}>
                查看全部
              </Button>
            </Space>
          }
        />
      )}
      {/* Hidden, not unmounted: what the user typed stays with the query it made. */}
      <div hidden={!searchShown}>
        <SearchBar
          key={opened.round}
          columns={searchColumns}
          showAll={advanced}
          range={createRange}
          initial={opened.state}
          resetRange={resetRange}
          onSearch={onSearch}
          onReset={onSearch}
        />
      </div>
      <ListToolbar
        can={abilities}
        selected={selected.keys.length}
        buttons={toolButtons}
        busy={busy}
        advanced={advanced}
        searchShown={searchShown}
        columns={model.columns}
        visible={visible}
        onColumns={setVisible}
        onAdd={() => crud.open({ mode: 'add' })}
        onEdit={() => selected.rows[0] && crud.open({ mode: 'edit', row: selected.rows[0] })}
        onDelete={() => void crud.remove(selected.rows)}
        onExport={() => void exportRows()}
        onImport={() => setImporting(true)}
        onTemplate={() => void download(model.api.template, undefined, `${model.title}导入模板.xlsx`)}
        onAdvanced={() => {
          setAdvanced((a) => !a);
          setSearchShown(true);
        }}
        onToggleSearch={() => setSearchShown((s) => !s)}
        onRefresh={list.reload}
        onButton={(b) => void runCustom(b, selected.rows, b.name)}
        extra={toolbarExtra}
      />
      <ListTable
        columns={shownColumns}
        rows={list.rows}
        rowKey={keyField}
        loading={list.loading}
        page={list.query.page}
        size={list.query.size}
        total={list.total}
        estimated={list.estimated}
        sort={list.query.sort}
        defaultSort={model.defaultSort}
        index={model.features.index}
        selectable
        selectedKeys={selected.keys}
        onSelect={list.select}
        onChange={list.change}
        operation={operation}
      />
      {dialog && (
        <RecordDialog
          key={`${dialog.mode}:${String(dialog.row?.[keyField] ?? '')}`}
          model={model}
          schema={schema}
          state={dialog}
          fixedValues={carried}
          onClose={crud.close}
          onSubmitting={crud.submitting}
          onSaved={crud.saved}
          onRefused={crud.refused}
        />
      )}
      {importing && (
        <ImportDialog
          resource={resource}
          template={abilities.template}
          title={model.title}
          onClose={() => setImporting(false)}
          onImported={list.reload}
        />
      )}
      {viewDialog?.linked !== undefined && viewDialog.button.view !== undefined && (
        <LinkedRecordDialog
          viewId={viewDialog.button.view}
          id={viewDialog.linked}
          title={viewDialog.button.label}
          onClose={() => setViewDialog(null)}
        />
      )}
      {viewDialog && viewDialog.linked === undefined && (
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
