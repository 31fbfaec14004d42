import { Empty, Tabs } from 'antd';
import { useState } from 'react';
import type { ContainerPageModel } from '../../model';
import { type DefinitionState, useDefinitions } from '../hooks/use-definition';
import { titleOf } from '../runtime/resolve';
import { ViewFromState } from '../runtime/resolved-page';

function tabTitle(state: DefinitionState | undefined, id: number): string {
  return (state?.status === 'ready' && titleOf(state.resolution, state.raw)) || `视图 ${id}`;
}

/**
 * Screen types 1 and 4: one list view, or the views as tabs. A container knows view ids only: every
 * view's definition is fetched at once (the tabs show their names), and each is drawn by its
 * generated page when the hashes agree, else at run time.
 */
export function ContainerPage({ model }: { model: ContainerPageModel }) {
  const { states, reload } = useDefinitions('view', model.views);
  const [active, setActive] = useState(() => String(model.views[0] ?? ''));
  if (!model.views.length) return <Empty description="该页面没有配置视图" />;
  const pane = (id: number) => <ViewFromState id={id} state={states.get(id) ?? { status: 'loading' }} reload={() => reload(id)} />;
  if (model.screenType === 1) {
    return (
      <div className="engine-container-page" data-screen-id={model.screenId}>
        {pane(model.views[0] as number)}
      </div>
    );
  }
  return (
    <div className="engine-container-page" data-screen-id={model.screenId}>
      <Tabs
        activeKey={active}
        onChange={setActive}
        items={model.views.map((id) => ({ key: String(id), label: tabTitle(states.get(id), id), children: pane(id) }))}
      />
    </div>
  );
}
