import { Card, Descriptions, Typography } from 'antd';
import type { BigScreenModel } from '../model/types.js';

export { ContainerPage } from './container/container-page';
export { FormPage } from './form/form-page';
export { ListPage, type ListPageProps } from './list/list-page';

/** A big screen: its title, where it was defined, and its canvas and containers. */
export function BigScreenPage({ model }: { model: BigScreenModel }) {
  return (
    <Card title={model.title} data-page-kind={model.kind}>
      <Descriptions size="small" column={1}>
        <Descriptions.Item label="来源">
          <Typography.Text code>{model.source.file}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="编号">大屏 {model.screenId}</Descriptions.Item>
        <Descriptions.Item label="画布">
          {model.canvas.basic.width}×{model.canvas.basic.height}，{model.layout.length} 个容器
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
