import { Alert } from 'antd';
import { Component, memo, type ReactNode, useLayoutEffect, useMemo, useRef } from 'react';
import {
  type DataProvider,
  DefinitionProblems,
  type EngineServices,
  EngineServicesProvider,
  HttpError,
  ListPage,
  ListSearchNotInAddress,
  useEngineServices,
} from '../../engine/index';
import { buildSchema, type ListPageModel, type Problem } from '../../model/index';

/** The preview's own mark: the runtime renderer has committed the definition numbered `detail`. */
export const PREVIEW_MARK = 'wastegen:design-preview';

const NOT_SAVED = '预览中不读写数据，发布后在页面中录入';

/**
 * The preview draws an unsaved definition whose table may not exist yet: it lists no rows and
 * refuses writes with a notice; dictionaries, remote options and other calls go to the server.
 */
function previewData(real: DataProvider, services: EngineServices): DataProvider {
  const refuse = async (): Promise<never> => {
    services.notify.info(NOT_SAVED);
    throw new HttpError(NOT_SAVED, 0);
  };
  return {
    ...real,
    getList: async () => ({ rows: [], total: 0 }),
    getOne: async () => undefined,
    preAdd: async () => undefined,
    create: refuse,
    update: refuse,
    deleteMany: refuse,
    import: refuse,
    groovy: refuse,
    export: async () => {
      services.notify.info(NOT_SAVED);
      return false;
    },
  };
}

class PreviewBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: { resetKey: string }, state: { error: unknown; key: string }) {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }
  override render() {
    if (this.state.error)
      return (
        <Alert
          type="error"
          showIcon
          title="预览出错"
          description={this.state.error instanceof Error ? this.state.error.message : String(this.state.error)}
        />
      );
    return this.props.children;
  }
}

function Committed({ version }: { version: number }) {
  useLayoutEffect(() => {
    performance.mark?.(PREVIEW_MARK, { detail: version });
  }, [version]);
  return null;
}

const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** `next`, or `before` where it is equal to it: a list keeps its unchanged items, and itself when none changed. */
function steady<T>(before: T | undefined, next: T): T {
  if (before === undefined) return next;
  if (Array.isArray(before) && Array.isArray(next)) {
    const items = next.map((x, i) => (sameJson(before[i], x) ? before[i] : x));
    return (items.length === before.length && items.every((x, i) => x === before[i]) ? before : items) as T;
  }
  return sameJson(before, next) ? before : next;
}

/**
 * The page model of the previous edit wherever a part is unchanged, so the list page keeps its rows
 * (it asks again only when its endpoints or default sort change) and its memoised parts (the form,
 * its schema, unchanged columns) across an edit, without a reload or a remount.
 */
function useSteadyModel(page: ListPageModel | undefined): ListPageModel | undefined {
  const previous = useRef<ListPageModel | undefined>(undefined);
  return useMemo(() => {
    const b = previous.current;
    const next: ListPageModel | undefined =
      page && b
        ? {
            ...page,
            api: steady(b.api, page.api),
            defaultSort: steady(b.defaultSort, page.defaultSort),
            permissions: steady(b.permissions, page.permissions),
            features: steady(b.features, page.features),
            columns: steady(b.columns, page.columns),
            form: steady(b.form, page.form),
            buttons: steady(b.buttons, page.buttons),
          }
        : page;
    previous.current = next;
    return next;
  }, [page]);
}

/**
 * What the list page reads once when it mounts (which columns there are and which are shown, the
 * search fields, the form's fields): a change of these draws it anew; any other edit (a label, a
 * width, a rule) redraws the mounted page.
 */
const shapeOf = (m: ListPageModel) =>
  JSON.stringify([
    m.columns.map((c) => [c.name, c.visible, c.search, c.searchKind]),
    m.form.fields.map((f) => [f.name, f.kind]),
    m.defaultSort,
  ]);

/**
 * Live preview: the runtime renderer's list page drawing the designer's unsaved definition, from the
 * page model the designer's check produced (the one normalisation per edit). The list page stays
 * mounted across edits; a definition with errors shows them, as the runtime renderer does.
 */
export const DesignPreview = memo(function DesignPreview({
  page,
  problems,
  version,
}: {
  page: ListPageModel | undefined;
  problems: readonly Problem[];
  version: number;
}) {
  const parent = useEngineServices();
  const services = useMemo<EngineServices>(() => ({ ...parent, data: previewData(parent.data, parent) }), [parent]);
  const model = useSteadyModel(page);
  const form = model?.form;
  // Rebuilt only when the form changed: an edit of a column keeps the form and its schema.
  const schema = useMemo(() => (form ? buildSchema(form) : undefined), [form]);
  return (
    <EngineServicesProvider services={services}>
      <PreviewBoundary resetKey={String(version)}>
        <div className="design-preview" data-version={version}>
          {model && schema ? (
            // The preview is part of the designer's page: its search stays out of the designer's address.
            <ListSearchNotInAddress>
              <ListPage key={shapeOf(model)} model={model} schema={schema} />
            </ListSearchNotInAddress>
          ) : (
            <DefinitionProblems problems={problems.filter((p) => !p.code.startsWith('W_'))} />
          )}
        </div>
        <Committed version={version} />
      </PreviewBoundary>
    </EngineServicesProvider>
  );
});
