import { Alert } from 'antd';
import { Component, type ReactNode, useLayoutEffect, useMemo } from 'react';
import { ViewFromDefinition } from '../../../engine/runtime/resolved-page';
import { type DataProvider, type EngineServices, EngineServicesProvider, HttpError, useEngineServices } from '../../../engine/services';

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

/** Live preview: the runtime renderer drawing the designer's unsaved definition. */
export function DesignPreview({ raw, version }: { raw: Record<string, unknown>; version: number }) {
  const parent = useEngineServices();
  const services = useMemo<EngineServices>(() => ({ ...parent, data: previewData(parent.data, parent) }), [parent]);
  return (
    <EngineServicesProvider services={services}>
      <PreviewBoundary resetKey={String(version)}>
        <div className="design-preview" data-version={version}>
          <ViewFromDefinition raw={raw} runtimeOnly />
        </div>
        <Committed version={version} />
      </PreviewBoundary>
    </EngineServicesProvider>
  );
}
