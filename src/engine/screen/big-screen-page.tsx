import { SettingOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useMemo } from 'react';
import type { BigScreenModel } from '../../model/index.js';
import { bigScreenDesignerPath } from '../../shared/app-paths';
import { useEngineServices, usePageNavigation } from '../services';
import { ScreenDataProvider, screenDataOf, useProvidedScreenData } from './data-source';
import { ScreenView } from './screen-view';

/** Who may open a screen's canvas, container and chart configuration panels. */
export const SCREEN_DESIGN_PERMISSION = 'screen:design';

/**
 * A big screen as an in-app page (menu pages, generated pages, `/{x}/vBuild/temp/{id}`): the canvas
 * fills the page's width at its aspect ratio. Its data comes from a ScreenDataProvider above it, else
 * from the engine's data provider with the user's session. A user who may design screens finds
 * 大屏配置 on it, which opens the canvas, container and chart configuration panels for this screen.
 */
export function BigScreenPage({ model }: { model: BigScreenModel }) {
  const { data, can } = useEngineServices();
  const { navigate } = usePageNavigation();
  const provided = useProvidedScreenData();
  const source = useMemo(() => provided ?? screenDataOf(data), [provided, data]);
  return (
    <div className="wg-screen-page">
      {can(SCREEN_DESIGN_PERMISSION) && (
        <Tooltip title="打开画布、容器和图表配置">
          <Button
            className="wg-screen-page-configure"
            size="small"
            icon={<SettingOutlined />}
            onClick={() => navigate(bigScreenDesignerPath(model.screenId))}
          >
            大屏配置
          </Button>
        </Tooltip>
      )}
      <ScreenDataProvider source={source}>
        <ScreenView model={model} fit="parent" />
      </ScreenDataProvider>
    </div>
  );
}
