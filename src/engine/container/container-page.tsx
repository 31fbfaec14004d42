import { Button, Empty, Result, Spin, Tabs } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import type { ContainerPageModel } from '../../model/types';
import { http } from '../../request';
import { ResolvedView, VIEW_DETAIL_URL } from './resolve-view';

type ViewState = { status: 'loading' } | { status: 'ready'; raw: unknown } | { status: 'failed'; message: string };

/** Every view's definition, fetched side by side; a failed one can be asked for again on its own. */
function useViewDefinitions(ids: readonly number[]): { states: Map<number, ViewState>; retry: (id: number) => void } {
  const [states, setStates] = useState<Map<number, ViewState>>(() => new Map(ids.map((id) => [id, { status: 'loading' }])));
  const load = useCallback((id: number, live: () => boolean) => {
    setStates((s) => new Map(s).set(id, { status: 'loading' }));
    http
      .get(VIEW_DETAIL_URL, { id })
      .then((raw) => live() && setStates((s) => new Map(s).set(id, { status: 'ready', raw })))
      .catch(
        (e: unknown) =>
          live() && setStates((s) => new Map(s).set(id, { status: 'failed', message: e instanceof Error ? e.message : String(e) })),
      );
  }, []);
  const key = ids.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for ids
  useEffect(() => {
    let alive = true;
    for (const id of ids) load(id, () => alive);
    return () => {
      alive = false;
    };
  }, [key, load]);
  return { states, retry: (id) => load(id, () => true) };
}

function titleOf(state: ViewState | undefined, id: number): string {
  if (state?.status === 'ready' && state.raw && typeof state.raw === 'object') {
    const name = (state.raw as { name?: unknown }).name;
    if (typeof name === 'string' && name.trim()) return name;
  }
  return `视图 ${id}`;
}

function ViewPane({ id, state, retry }: { id: number; state: ViewState | undefined; retry: (id: number) => void }) {
  if (!state || state.status === 'loading') return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (state.status === 'failed')
    return (
      <Result
        status="error"
        title={`视图 ${id} 加载失败`}
        subTitle={state.message}
        extra={
          <Button type="primary" onClick={() => retry(id)}>
            重试
          </Button>
        }
      />
    );
  return <ResolvedView viewId={id} definition={state.raw} />;
}

/**
 * Screen types 1 and 4 (lowcode-engine.md §2.3, definitions.md §2): one list view, or the views as
 * tabs. A container knows view ids only: each view's definition is fetched and drawn by its
 * generated page when the hashes agree, else at run time (resolve-view.tsx).
 */
export function ContainerPage({ model }: { model: ContainerPageModel }) {
  const { states, retry } = useViewDefinitions(model.views);
  const [active, setActive] = useState(() => String(model.views[0] ?? ''));
  if (!model.views.length) return <Empty description="该页面没有配置视图" />;
  const first = model.views[0] as number;
  if (model.screenType === 1) {
    return (
      <div className="engine-container-page" data-screen-id={model.screenId}>
        <ViewPane id={first} state={states.get(first)} retry={retry} />
      </div>
    );
  }
  return (
    <div className="engine-container-page" data-screen-id={model.screenId}>
      <Tabs
        activeKey={active}
        onChange={setActive}
        items={model.views.map((id) => ({
          key: String(id),
          label: titleOf(states.get(id), id),
          children: <ViewPane id={id} state={states.get(id)} retry={retry} />,
        }))}
      />
    </div>
  );
}
