import { Card, Descriptions, Typography } from 'antd';
import type { ZodType } from 'zod';
import type { BigScreenModel, ContainerPageModel, ListPageModel, PageModel } from '../model/types.js';

function Summary({ model, children }: { model: PageModel; children?: React.ReactNode }) {
  const id = model.kind === 'list' ? `视图 ${model.viewId}` : `大屏 ${model.screenId}`;
  return (
    <Card title={model.title} data-page-kind={model.kind}>
      <Descriptions size="small" column={1}>
        <Descriptions.Item label="来源">
          <Typography.Text code>{model.source.file}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="编号">{id}</Descriptions.Item>
        <Descriptions.Item label="内容摘要">{model.source.hash}</Descriptions.Item>
      </Descriptions>
      {children}
    </Card>
  );
}

export interface ListPageProps<T> {
  model: ListPageModel;
  schema: ZodType<T>;
}

export function ListPage<T>({ model }: ListPageProps<T>) {
  return (
    <Summary model={model}>
      <Typography.Paragraph>
        {model.columns.length} 列，{model.form.fields.length} 个表单字段，{model.buttons.length} 个自定义按钮
      </Typography.Paragraph>
    </Summary>
  );
}

export function ContainerPage({ model }: { model: ContainerPageModel }) {
  return <Summary model={model}>视图 {model.views.join('、')}</Summary>;
}

export function BigScreenPage({ model }: { model: BigScreenModel }) {
  return (
    <Summary model={model}>
      {model.canvas.basic.width}×{model.canvas.basic.height}，{model.layout.length} 个容器
    </Summary>
  );
}

export { FormPage } from './form/form-page';
